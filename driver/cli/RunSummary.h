//===- RunSummary.h - A run's last words on standard error ------*- C++ -*-===//
//
// Whatever the format and wherever the report goes, a run ends with one line
// on standard error: files analysed, not analysed and excluded; findings
// reported (and how many fail the gate), in the baseline and suppressed by
// NOLINT; the time. A CI job whose gate fails shows what failed: when the
// findings fail it and the report went to a file or is not text on standard
// output, each failing finding as 'file:line:col: check: message' (paths
// relative to the source root).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_RUNSUMMARY_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_RUNSUMMARY_H

#include "Invocation.h"
#include "output/Output.h"
#include "report/Report.h"
#include <chrono>

namespace cuda_async_lint {

/// Failing findings listed on standard error at most; the rest are counted.
inline constexpr size_t MaxListedFailures = 100;

/// The first error line of clang's rendered \p Errors ('file:line:col:
/// error: ...'), or empty.
llvm::StringRef firstErrorLine(llvm::StringRef Errors);

/// \p Status: the run's exit status; \p TextOnStdout: the findings were
/// printed there already.
void sayRunSummary(const Invocation &I, const Report &R,
                   const OutputContext &Ctx, int Status, bool TextOnStdout,
                   std::chrono::steady_clock::duration Took);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_RUNSUMMARY_H
