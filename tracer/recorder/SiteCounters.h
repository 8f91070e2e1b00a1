//===- SiteCounters.h - What a trace counts per call site -------*- C++ -*-===//
//
// The counters of one call site, shared by the recorder (inside the traced
// program) and the trace (after it): the list is SiteCounters.def.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_SITECOUNTERS_H
#define CUDA_ASYNC_TRACE_RECORDER_SITECOUNTERS_H

#include <cstdint>
#include <set>
#include <string>

namespace cuda_async_trace {

struct SiteCounters {
#define SITE_COUNTER(Member, Json) std::uint64_t Member = 0;
#include "SiteCounters.def"
  /// The error of the first failed call that blames an argument, else of
  /// the first failed call (cudaError_t or CUresult).
  int FirstError = 0;
  /// "pageable->device", ... as the GPU's records named source and
  /// destination.
  std::set<std::string> MemoryKinds;

  /// Adds \p Other's counts: the same call at the same line, from another
  /// stack or process.
  void add(const SiteCounters &Other) {
#define SITE_COUNTER(Member, Json) Member += Other.Member;
    if ((!ArgumentFailures && Other.ArgumentFailures) ||
        (!Failures && Other.Failures))
      FirstError = Other.FirstError;
#include "SiteCounters.def"
    MemoryKinds.insert(Other.MemoryKinds.begin(), Other.MemoryKinds.end());
  }
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_SITECOUNTERS_H
