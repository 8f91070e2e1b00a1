//===- ExportCompileCommandsMode.cpp - --export-compile-commands ----------===//
//
// The database of -p with nvcc's and hipcc's flags translated for clang
// tools (clangd, clang-tidy with the plugin), written to a directory.
//
//===----------------------------------------------------------------------===//

#include "ExitCodes.h"
#include "Modes.h"
#include "Setup.h"
#include "UsageError.h"
#include "compile/ExportCompileCommands.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

int exportCompileCommands(const Invocation &I) {
  Expected<ParseSetup> Parsing = parseSetupOf(I, /*WithInputs=*/true);
  if (!Parsing)
    return usageError(Parsing.takeError());
  const RunInputs &In = Parsing->Inputs;
  Expected<std::string> Written = exportCompileCommands(
      *In.Database, I.BuildPath, In.Files,
      makeHostViewAdjuster(Parsing->Headers), I.ExportCompileCommandsDir);
  if (!Written)
    return usageError(Written.takeError());
  errs() << "cuda-async-lint: wrote " << *Written << "\n";
  return ExitClean;
}

} // namespace cuda_async_lint
