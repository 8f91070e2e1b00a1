//===- ListChecksMode.cpp - --list-checks ---------------------------------===//
//
// The checks enabled for the first file (else the working directory), as
// clang-tidy lists them.
//
//===----------------------------------------------------------------------===//

#include "ExitCodes.h"
#include "Modes.h"
#include "Setup.h"
#include "UsageError.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

int listChecks(const Invocation &I) {
  Expected<clang::tidy::ClangTidyOptions> Options = optionsOfFirstFile(I);
  if (!Options)
    return usageError(Options.takeError());
  outs() << "Enabled checks:\n";
  for (StringRef Id : enabledChecks(*Options))
    outs() << "    " << Id << "\n";
  outs() << "\n";
  return ExitClean;
}

} // namespace cuda_async_lint
