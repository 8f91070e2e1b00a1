//===- TraceMetrics.h - Concurrency measured from a traced run --*- C++ -*-===//
//
// What the activity records prove about overlap: how long a copy and a
// kernel really ran at once, how long two or three engines were busy
// together, and which host memory kind each copy used.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_TRACEMETRICS_H
#define CUDA_ASYNC_VERIFY_MODEL_TRACEMETRICS_H

#include "Timeline.h"

#include <map>

namespace cuda_async_verify {

struct TraceMetrics {
  double SpanMs = 0;
  /// Time each engine was busy (overlapping operations counted once).
  double HostToDeviceBusyMs = 0;
  double KernelBusyMs = 0;
  double DeviceToHostBusyMs = 0;
  /// Time a kernel ran while at least one copy (either direction) ran.
  double CopyKernelOverlapMs = 0;
  /// Time at least two engines were busy, and all three.
  double TwoEnginesMs = 0;
  double ThreeEnginesMs = 0;
  /// Copies per host memory kind, as CUPTI reported them.
  std::map<HostMemory, unsigned> CopiesByMemory;
  unsigned Kernels = 0;
};

TraceMetrics measureTrace(const Timeline &Trace);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_TRACEMETRICS_H
