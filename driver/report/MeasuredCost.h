//===- MeasuredCost.h - What each bug class cost on a real GPU --*- C++ -*-===//
//
// The runtime verifier's recorded verdicts (docs/runtime-verifier/*/
// results.json), compiled in by scripts/gpu-cost.py, for reports that say
// what a finding's pattern was measured to cost.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_MEASUREDCOST_H
#define CUDA_ASYNC_LINT_DRIVER_MEASUREDCOST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace cuda_async_lint {

struct MeasuredCost {
  const char *CheckId;
  /// Which pattern of the check, where it has several; may be empty.
  const char *Scenario;
  const char *Gpu;
  const char *Pipeline;
  /// "fix restores overlap", ...
  const char *Verdict;
  /// The measured numbers: "cudaMallocHost: 96% efficiency, 9.70x faster...".
  const char *Reason;
  /// The recorded run, relative to the repository root.
  const char *RunDirectory;
};

/// The recorded verdicts for check \p Id, in the order of the runs.
std::vector<MeasuredCost> measuredCosts(llvm::StringRef Id);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_MEASUREDCOST_H
