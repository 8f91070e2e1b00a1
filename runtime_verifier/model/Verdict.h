//===- Verdict.h - Did the fix restore overlap or correctness? --*- C++ -*-===//
//
// Overlap checks pass when every fixed variant is correct, reaches the
// efficiency target and beats every buggy variant by the stated margin with
// non-overlapping spreads. Correctness checks pass when every fixed variant
// is correct and every buggy variant observably is not.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_VERDICT_H
#define CUDA_ASYNC_VERIFY_MODEL_VERDICT_H

#include "Results.h"

namespace cuda_async_verify {

Verdict judge(const CheckResult &Check, const Criteria &Bar);

/// Runs of one variant that spread more than this around their median, as a
/// fraction of it, were taken on a busy (shared) machine.
constexpr double NoisySpread = 0.2;

/// The widest relative spread of a fixed variant's timed runs: how noisy the
/// measurement that decides an overlap verdict was. 0 without timed runs.
double fixedSpread(const CheckResult &Check);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_VERDICT_H
