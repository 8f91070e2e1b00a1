//===- CudaToolkit.cpp ----------------------------------------------------===//

#include "CudaToolkit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

namespace {

/// The build of an nvcc version "13.0.88": 88.
std::optional<unsigned> buildOf(llvm::StringRef Version) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Version.split(Parts, '.');
  unsigned Build;
  if (Parts.size() != 3 || Parts[2].getAsInteger(10, Build))
    return std::nullopt;
  return Build;
}

/// The build number of the toolkit's nvcc at \p Root: version.json's
/// "cuda_nvcc" version, or a pip installation's
/// dist-info/nvidia_cuda_nvcc-13.0.88.dist-info.
std::optional<unsigned> nvccBuildOf(llvm::StringRef Root) {
  llvm::SmallString<256> Path(Root);
  llvm::sys::path::append(Path, "version.json");
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
    llvm::Expected<llvm::json::Value> Json =
        llvm::json::parse((*Buffer)->getBuffer());
    if (!Json) {
      llvm::consumeError(Json.takeError());
    } else if (const llvm::json::Object *Obj = Json->getAsObject()) {
      if (const llvm::json::Object *Nvcc = Obj->getObject("cuda_nvcc"))
        if (std::optional<llvm::StringRef> V = Nvcc->getString("version"))
          return buildOf(*V);
    }
  }
  llvm::SmallString<256> DistInfo(Root);
  llvm::sys::path::append(DistInfo, "dist-info");
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(DistInfo, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.consume_front("nvidia_cuda_nvcc-") &&
        Name.consume_back(".dist-info"))
      return buildOf(Name);
  }
  return std::nullopt;
}

} // namespace

std::optional<CudaVersion> cudaVersionOf(const CudaHeaders &Cuda) {
  llvm::SmallString<256> Header(Cuda.Path);
  if (Cuda.From == CudaHeaders::Source::Toolkit)
    llvm::sys::path::append(Header, "include");
  llvm::sys::path::append(Header, "cuda.h");
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer)
    return std::nullopt;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  for (size_t At = Text.find("#define CUDA_VERSION");
       At != llvm::StringRef::npos;
       At = Text.find("#define CUDA_VERSION", At + 1)) {
    llvm::StringRef Value =
        Text.substr(At + strlen("#define CUDA_VERSION")).ltrim(" \t");
    // Not CUDA_VERSION_...: a space, then the number.
    if (Value.size() == Text.size() - At - strlen("#define CUDA_VERSION"))
      continue;
    unsigned Number;
    if (Value.take_while(llvm::isDigit).getAsInteger(10, Number) ||
        Number < 1000)
      continue;
    CudaVersion V;
    V.Major = Number / 1000;
    V.Minor = Number % 1000 / 10;
    if (Cuda.From == CudaHeaders::Source::Toolkit)
      V.Build = nvccBuildOf(Cuda.Path);
    return V;
  }
  return std::nullopt;
}

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
