//===- CudaToolkit.h - Which CUDA declarations a TU is parsed with -*- C++
//-*-===//
//
// A CUDA toolkit when one is found (--cuda-path, then $CUDA_PATH, then
// /usr/local/cuda); otherwise the CUDA API declarations bundled with
// cuda-async-lint, so the tool runs where no toolkit is installed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CUDATOOLKIT_H
#define CUDA_ASYNC_LINT_DRIVER_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace cuda_async_lint {

struct CudaHeaders {
  enum class Source { Toolkit, Bundled };
  Source From;
  /// The toolkit's root, or the bundled declarations' include directory.
  std::string Path;
  /// How it was chosen, for --verbose: "--cuda-path", "CUDA_PATH", ...
  std::string Reason;
  /// cuda-async-lint's own headers (the bundled declarations' directory),
  /// whichever declarations were chosen: the nvcc host shim lives there.
  std::string BundledDir;
};

/// The version nvcc reports to the code it compiles (__CUDACC_VER_MAJOR__,
/// __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__).
struct CudaVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
  /// nvcc's build number, where the toolkit records it.
  std::optional<unsigned> Build;
};

/// The version of the CUDA declarations \p Cuda: the CUDA_VERSION of their
/// cuda.h, and the build number of the toolkit's nvcc from its
/// version.json (or a pip installation's dist-info). None if cuda.h does
/// not say.
std::optional<CudaVersion> cudaVersionOf(const CudaHeaders &Cuda);

/// True if \p Root looks like a CUDA toolkit: it has include/cuda_runtime.h.
bool isCudaToolkit(llvm::StringRef Root);

/// Chooses the CUDA declarations. \p CudaPathOption is --cuda-path (empty if
/// not given); naming a directory that is no toolkit is an error.
/// \p CudaPathEnv is $CUDA_PATH. \p BundledDir holds the bundled headers.
llvm::Expected<CudaHeaders> chooseCudaHeaders(llvm::StringRef CudaPathOption,
                                              llvm::StringRef CudaPathEnv,
                                              bool ForceBundled,
                                              llvm::StringRef BundledDir);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CUDATOOLKIT_H
