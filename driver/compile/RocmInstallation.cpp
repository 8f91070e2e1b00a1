//===- RocmInstallation.cpp -----------------------------------------------===//

#include "RocmInstallation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

bool isRocmInstallation(llvm::StringRef Root) {
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "hip", "hip_runtime.h");
  return llvm::sys::fs::is_regular_file(Header);
}

llvm::Expected<HipHeaders> chooseHipHeaders(const RocmSearch &Search) {
  HipHeaders Bundled{HipHeaders::Source::Bundled, Search.BundledDir.str(), ""};
  if (Search.ForceBundled) {
    Bundled.Reason = "--use-bundled-hip";
    return Bundled;
  }
  if (!Search.HipPathOption.empty()) {
    if (!isRocmInstallation(Search.HipPathOption))
      return llvm::createStringError(
          "--hip-path='%s' is not a ROCm installation (no "
          "include/hip/hip_runtime.h)",
          Search.HipPathOption.str().c_str());
    return HipHeaders{HipHeaders::Source::Rocm, Search.HipPathOption.str(),
                      "--hip-path"};
  }
  for (auto [Env, Name] : {std::pair{Search.RocmPathEnv, "$ROCM_PATH"},
                           std::pair{Search.HipPathEnv, "$HIP_PATH"}})
    if (!Env.empty() && isRocmInstallation(Env))
      return HipHeaders{HipHeaders::Source::Rocm, Env.str(), Name};
  for (const std::string &Root : Search.Defaults)
    if (isRocmInstallation(Root))
      return HipHeaders{HipHeaders::Source::Rocm, Root, Root};
  Bundled.Reason = "no ROCm installation found";
  return Bundled;
}

} // namespace cuda_async_lint
