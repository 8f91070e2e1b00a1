//===- CudaToolkit.cpp ----------------------------------------------------===//

#include "CudaToolkit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

bool isCudaToolkit(llvm::StringRef Root) {
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  return llvm::sys::fs::is_regular_file(Header);
}

llvm::Expected<CudaHeaders> chooseCudaHeaders(llvm::StringRef CudaPathOption,
                                              llvm::StringRef CudaPathEnv,
                                              bool ForceBundled,
                                              llvm::StringRef BundledDir) {
  CudaHeaders Bundled{CudaHeaders::Source::Bundled, BundledDir.str(), "",
                      BundledDir.str()};
  if (ForceBundled) {
    Bundled.Reason = "--use-bundled-cuda";
    return Bundled;
  }
  if (!CudaPathOption.empty()) {
    if (!isCudaToolkit(CudaPathOption))
      return llvm::createStringError(
          "--cuda-path='%s' is not a CUDA toolkit (no include/cuda_runtime.h)",
          CudaPathOption.str().c_str());
    return CudaHeaders{CudaHeaders::Source::Toolkit, CudaPathOption.str(),
                       "--cuda-path", BundledDir.str()};
  }
  if (!CudaPathEnv.empty() && isCudaToolkit(CudaPathEnv))
    return CudaHeaders{CudaHeaders::Source::Toolkit, CudaPathEnv.str(),
                       "$CUDA_PATH", BundledDir.str()};
  if (isCudaToolkit("/usr/local/cuda"))
    return CudaHeaders{CudaHeaders::Source::Toolkit, "/usr/local/cuda",
                       "/usr/local/cuda", BundledDir.str()};
  Bundled.Reason = CudaPathEnv.empty()
                       ? "no CUDA toolkit found"
                       : "no CUDA toolkit found ($CUDA_PATH has none)";
  return Bundled;
}

} // namespace cuda_async_lint
