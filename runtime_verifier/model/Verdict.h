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

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_VERDICT_H
