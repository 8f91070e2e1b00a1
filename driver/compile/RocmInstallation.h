//===- RocmInstallation.h - Which HIP declarations a TU is parsed with -*-===//
//
// A ROCm installation when one is found (--hip-path, then $ROCM_PATH, then
// $HIP_PATH, then /opt/rocm, then /usr where Debian's libamdhip64-dev puts
// the headers); otherwise the HIP API declarations bundled with
// cuda-async-lint, so HIP code is analysed where no ROCm is installed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_ROCMINSTALLATION_H
#define CUDA_ASYNC_LINT_DRIVER_ROCMINSTALLATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_async_lint {

struct HipHeaders {
  enum class Source { Rocm, Bundled };
  Source From;
  /// The installation's root (clang's --rocm-path), or the bundled
  /// declarations' include directory (it holds hip/hip_runtime.h).
  std::string Path;
  /// How it was chosen, for --verbose: "--hip-path", "$ROCM_PATH", ...
  std::string Reason;
};

/// True if \p Root holds HIP's headers: include/hip/hip_runtime.h.
bool isRocmInstallation(llvm::StringRef Root);

/// Where clang should look for ROCm when no option or variable names one.
struct RocmSearch {
  llvm::StringRef HipPathOption; ///< --hip-path; naming no ROCm is an error
  llvm::StringRef RocmPathEnv;   ///< $ROCM_PATH
  llvm::StringRef HipPathEnv;    ///< $HIP_PATH
  bool ForceBundled;             ///< --use-bundled-hip
  llvm::StringRef BundledDir;
  /// The default places, in order.
  std::vector<std::string> Defaults = {"/opt/rocm", "/usr"};
};

/// Chooses the HIP declarations.
llvm::Expected<HipHeaders> chooseHipHeaders(const RocmSearch &Search);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_ROCMINSTALLATION_H
