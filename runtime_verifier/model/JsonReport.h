//===- JsonReport.h - The machine-readable report (--json) ------*- C++ -*-===//
//
// Schema "cuda-async-verify/2", documented in docs/runtime-verifier.md.
// Times are milliseconds; a number that cannot be computed is null.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_JSONREPORT_H
#define CUDA_ASYNC_VERIFY_MODEL_JSONREPORT_H

#include "Results.h"

#include <string>

namespace cuda_async_verify {

/// The report as indented JSON text, ending in a newline.
std::string renderJson(const Report &R);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_JSONREPORT_H
