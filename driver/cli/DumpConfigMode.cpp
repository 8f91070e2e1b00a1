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
  Expected<Configuration> Config = configurationOf(I);
  if (!Config)
    return usageError(Config.takeError());
  Expected<clang::tidy::ClangTidyOptions> Options =
      optionsOfFirstFile(I, *Config);
  if (!Options)
    return usageError(Options.takeError());
  outs() << dumpConfiguration(*Options);
  return ExitClean;
}

} // namespace cuda_async_lint
