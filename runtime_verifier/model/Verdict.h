//===- Verdict.h - Did the fix restore overlap or correctness? --*- C++ -*-===//
//
// Overlap checks pass when every fixed variant is correct, reaches the
// efficiency target and beats every buggy variant by the stated margin.
// Each of the two is decided on the interval that holds the median of the
// runs (medianInterval), not on the median alone: wholly above the bar
// passes, wholly below fails, and an interval across the bar is
// inconclusive on this machine, said with its reason. Correctness checks
// pass when every fixed variant is correct and every buggy variant
// observably is not.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_VERDICT_H
#define CUDA_ASYNC_VERIFY_MODEL_VERDICT_H

#include "Results.h"

namespace cuda_async_verify {

Verdict judge(const CheckResult &Check, const Criteria &Bar);

/// How much faster a fixed variant ran than a buggy one: the median of the
/// ratios of their runs taken in the same repeat, with its interval.
struct Speedup {
  const VariantResult *Fixed = nullptr;
  const VariantResult *Buggy = nullptr;
  Interval Range;
};
std::vector<Speedup> speedups(const CheckResult &Check);

/// Runs of one variant that spread more than this around their median, as a
/// fraction of it, were taken on a busy (shared) machine.
constexpr double NoisySpread = 0.2;

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_VERDICT_H
