//===- Modes.h - What a run of cuda-async-lint can do -----------*- C++ -*-===//
//
// One function per mode, each in its own file; each returns the process's
// exit status (ExitCodes.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_MODES_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_MODES_H

#include "Invocation.h"

namespace cuda_async_lint {

/// The files' findings, reported in the chosen format (AnalyseMode.cpp).
int analyse(const Invocation &I);
/// --emit-summaries: the program's (or a shard's) summary store, with the
/// results its units' analyses left (EmitSummariesMode.cpp).
int emitSummaries(const Invocation &I);
/// --merge-summaries: shard stores into one (MergeSummariesMode.cpp).
int mergeSummaries(const Invocation &I);
/// --export-compile-commands (ExportCompileCommandsMode.cpp).
int exportCompileCommands(const Invocation &I);
/// --list-checks (ListChecksMode.cpp).
int listChecks(const Invocation &I);
/// --dump-config (DumpConfigMode.cpp).
int dumpConfig(const Invocation &I);
/// --lsp (LanguageServerMode.cpp).
int serveLanguageServer(const Invocation &I);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_MODES_H
