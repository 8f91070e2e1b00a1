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
  Expected<Configuration> Config = configurationOf(I);
  if (!Config)
    return usageError(Config.takeError());
  Expected<clang::tidy::ClangTidyOptions> Options =
      optionsOfFirstFile(I, *Config);
  if (!Options)
    return usageError(Options.takeError());
  outs() << "Enabled checks:\n";
  for (StringRef Id : enabledChecks(*Options))
    outs() << "    " << Id << "\n";
  outs() << "\n";
  return ExitClean;
}

} // namespace cuda_async_lint
