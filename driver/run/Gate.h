//===- Gate.h - Which findings fail the gate --------------------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_RUN_GATE_H
#define CUDA_ASYNC_LINT_DRIVER_RUN_GATE_H

#include "clang-tidy/ClangTidyOptions.h"
#include "report/Report.h"
#include <vector>

namespace cuda_async_lint {

/// Sets each finding's IsError and FailsGate by \p Options' WarningsAsErrors,
/// as the analysis would have: for a result from the cache, made under
/// another WarningsAsErrors (no part of the cache's key). clang-tidy's NOLINT
/// errors stay errors.
void regateFindings(std::vector<ResolvedFinding> &Findings,
                    const clang::tidy::ClangTidyOptions &Options);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_RUN_GATE_H
