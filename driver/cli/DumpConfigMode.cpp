//===- DumpConfigMode.cpp - --dump-config ---------------------------------===//
//
// The configuration in effect for the first file (else the working
// directory), in .clang-tidy's format, as clang-tidy dumps it.
//
//===----------------------------------------------------------------------===//

#include "ExitCodes.h"
#include "Modes.h"
#include "Setup.h"
#include "UsageError.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

int dumpConfig(const Invocation &I) {
  Expected<clang::tidy::ClangTidyOptions> Options = optionsOfFirstFile(I);
  if (!Options)
    return usageError(Options.takeError());
  outs() << dumpConfiguration(*Options);
  return ExitClean;
}

} // namespace cuda_async_lint
