//===- UsageError.h - Bad usage or input, said on stderr --------*- C++ -*-===//
//
// Every mode says a usage or input error the same way, and exits 2
// (ExitCodes.h): nothing was analysed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_USAGEERROR_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_USAGEERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace cuda_async_lint {

/// Says "cuda-async-lint: error: \p Message" and returns ExitUsageError.
int usageError(const llvm::Twine &Message);
/// The same for each error \p E holds.
int usageError(llvm::Error E);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_USAGEERROR_H
