//===- RuntimeFindings.h - The checks a run itself shows --------*- C++ -*-===//
//
// The same check ids as the static analysis, from the trace alone, where the
// run shows the bug: an async copy whose host side was pageable (CUPTI's
// memory kinds), a release that failed or a crash inside one, a
// synchronization that waited, again and again, for work issued since its
// own last run, async work on the legacy default stream in a program that
// created streams, pinning repeated in the loop that uses the memory,
// registrations never undone.
// Each at its line, with what it cost. cuda-async-unsynchronized-access has
// no runtime rule: a host read of a buffer in flight leaves no CUDA call.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_MODEL_RUNTIMEFINDINGS_H
#define CUDA_ASYNC_TRACE_MODEL_RUNTIMEFINDINGS_H

#include "Trace.h"

#include <vector>

namespace cuda_async_trace {

/// The runtime findings of \p T's sites and processes, in site order.
std::vector<RuntimeFinding> runtimeFindings(const Trace &T);

/// The name of CUDA error \p Code, where the runtime and the driver agree
/// on it ("cudaErrorInvalidValue / CUDA_ERROR_INVALID_VALUE"), else the
/// number.
std::string cudaErrorName(int Code);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_MODEL_RUNTIMEFINDINGS_H
