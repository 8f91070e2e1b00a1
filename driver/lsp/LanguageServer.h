//===- LanguageServer.h - cuda-async-lint --lsp -----------------*- C++ -*-===//
//
// A Language Server Protocol server over stdio that runs beside clangd (which
// cannot load clang-tidy plugins): it publishes the checks' findings for the
// open files, on open and save and after edits (debounced), analysing the
// editor's unsaved text through an overlay, and offers their fix-its as
// quick fixes. Each analysis runs in its own worker process under the
// driver's time limit, and an edit cancels the run it makes stale, so the
// editor is never blocked: one loop polls the client and the workers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LSP_LANGUAGESERVER_H
#define CUDA_ASYNC_LINT_DRIVER_LSP_LANGUAGESERVER_H

#include "compile/CompileCommands.h"
#include "config/Configuration.h"
#include "output/DocsLinks.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

namespace cuda_async_lint::lsp {

struct ServerSetup {
  /// Each file's checks and options (its .clang-tidy files, the flags).
  const Configuration *Config = nullptr;
  clang::tooling::ArgumentsAdjuster Adjuster;
  /// The compilation database's directory (-p); empty: each file's nearest
  /// compile_commands.json, in its directory or an ancestor's, or their
  /// build/ subdirectory, as clangd looks.
  std::string BuildPath;
  /// Commands for files no database lists: '--' arguments, else defaults.
  std::optional<std::vector<std::string>> ExtraArgs;
  std::chrono::seconds Timeout{0};
  /// How long after an edit the analysis starts, if no other edit came.
  std::chrono::milliseconds Debounce{500};
  /// Analyses at once.
  unsigned Jobs = 1;
  DocsLinks Docs;
  /// Log what the server does on \p Log (the client's log).
  bool Verbose = false;
};

/// Serves the client on \p In (a descriptor: the loop polls it) and \p Out
/// until it says exit, or closes \p In. Returns the process's exit status:
/// 0 after shutdown then exit, 1 otherwise (as the protocol says).
int runLanguageServer(const ServerSetup &Setup, int In, llvm::raw_ostream &Out,
                      llvm::raw_ostream &Log);

} // namespace cuda_async_lint::lsp

#endif // CUDA_ASYNC_LINT_DRIVER_LSP_LANGUAGESERVER_H
