//===- LanguageServerMode.cpp - --lsp -------------------------------------===//
//
// The language server on stdin and stdout: the findings of the files an
// editor has open, as it edits (docs/editors.md).
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "Modes.h"
#include "Setup.h"
#include "UsageError.h"
#include "lsp/LanguageServer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <unistd.h>

using namespace llvm;

namespace cuda_async_lint {

int serveLanguageServer(const Invocation &I) {
  // The editor opens the files: none is read here.
  Expected<ParseSetup> Parsing = parseSetupOf(I, /*WithInputs=*/false);
  if (!Parsing)
    return usageError(Parsing.takeError());
  lsp::ServerSetup Setup;
  Setup.Config = &Parsing->Config;
  Setup.Adjuster =
      makeCommandAdjuster(Parsing->Headers, CUDA_ASYNC_LINT_CLANG_RESOURCE_DIR);
  Setup.BuildPath = I.BuildPath;
  Setup.ExtraArgs = I.ExtraArgs;
  Setup.Timeout = I.Timeout;
  Setup.Debounce = I.LspDebounce;
  Setup.Jobs = llvm::hardware_concurrency(I.Jobs).compute_thread_count();
  Setup.Docs = docsLinksOf(I);
  Setup.Verbose = I.Verbose;
  return lsp::runLanguageServer(Setup, STDIN_FILENO, outs(), errs());
}

} // namespace cuda_async_lint
