//===- UsageError.cpp - Bad usage or input, said on stderr ----------------===//

#include "UsageError.h"
#include "ExitCodes.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

int usageError(const Twine &Message) {
  errs() << "cuda-async-lint: error: " << Message << "\n";
  return ExitUsageError;
}

int usageError(Error E) {
  handleAllErrors(std::move(E), [](const ErrorInfoBase &Info) {
    usageError(Info.message());
  });
  return ExitUsageError;
}

} // namespace cuda_async_lint
