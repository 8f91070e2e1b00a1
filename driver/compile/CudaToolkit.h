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
