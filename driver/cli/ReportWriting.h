//===- ReportWriting.h - A run's report, written whole ----------*- C++ -*-===//
//
// Where the analyse mode's report goes: the outputs are checked before any
// analysis, and once the findings are in, the fixes are exported or
// applied, the report is rendered in memory and written in one piece
// (a failed write never leaves half of one), and the findings decide the
// exit status.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_REPORTWRITING_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_REPORTWRITING_H

#include "Invocation.h"
#include "output/Output.h"
#include "report/Report.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace cuda_async_lint {

/// --output, each --report's file and --export-fixes are writable and none
/// of \p Inputs, and
/// every input can be named in an exported fix.
llvm::Error checkOutputs(const Invocation &I,
                         llvm::ArrayRef<std::string> Inputs);

/// Writes \p R as \p I asks (\p Streamed: its text is on stdout already)
/// and returns the exit status: 3 if a file could not be analysed, else 1
/// if a finding fails the gate, else 0; 2 if a write fails.
int writeRunReport(const Invocation &I, Report &R, OutputContext &Ctx,
                   llvm::ArrayRef<std::string> Inputs, bool Streamed,
                   bool Colors);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_REPORTWRITING_H
