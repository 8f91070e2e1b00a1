//===- main.cpp - The cuda-async-lint command line tool -------------------===//
//
//   cuda-async-lint [options] FILES... [-- COMPILER_ARGS]
//   cuda-async-lint -p BUILD_DIR [FILES...]
//
// A run: the command line parsed and checked into one invocation
// (cli/CommandLine), the mode it asks for run (cli/*Mode.cpp), and that
// mode's exit status returned (ExitCodes.h, docs/usage.md).
//
//===----------------------------------------------------------------------===//

#include "cli/CommandLine.h"
#include "cli/ExitCodes.h"
#include "cli/Modes.h"
#include "llvm/Support/InitLLVM.h"

using namespace cuda_async_lint;

int main(int argc, const char **argv) {
  llvm::InitLLVM X(argc, argv);
  std::optional<Invocation> Run = parseCommandLine(argc, argv);
  if (!Run)
    return ExitUsageError;
  switch (Run->Mode) {
  case RunMode::MergeSummaries:
    return mergeSummaries(*Run);
  case RunMode::ListChecks:
    return listChecks(*Run);
  case RunMode::DumpConfig:
    return dumpConfig(*Run);
  case RunMode::LanguageServer:
    return serveLanguageServer(*Run);
  case RunMode::ExportCompileCommands:
    return exportCompileCommands(*Run);
  case RunMode::EmitSummaries:
    return emitSummaries(*Run);
  case RunMode::Analyse:
    return analyse(*Run);
  }
  return ExitUsageError;
}
