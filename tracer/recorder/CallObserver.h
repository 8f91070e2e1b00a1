//===- CallObserver.h - What the calls tell the host ------------*- C++ -*-===//
//
// The site table follows the program's streams; an observer (the race
// detector) learns from it, in call order, what it needs of each call:
// which host memory is pinned, which async copies are issued on which
// stream, and what the host knows to be finished once a call returns.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_CALLOBSERVER_H
#define CUDA_ASYNC_TRACE_RECORDER_CALLOBSERVER_H

#include "TracedApi.h"

#include <cstdint>

namespace cuda_async_trace {

/// A stream as the site table keys it: 0 is the legacy default stream,
/// whatever handle named it, 0x2 the per-thread default stream, any other
/// value a created stream's handle.
using StreamKey = std::uintptr_t;
constexpr StreamKey LegacyKey = 0, PerThreadKey = 0x2;

class CallObserver {
public:
  virtual ~CallObserver() = default;

  /// Page-locked host memory [Ptr, Ptr + Size) now exists: allocated pinned,
  /// or registered (\p ReadOnly: cudaHostRegisterReadOnly).
  virtual void pinned(std::uintptr_t Ptr, std::uint64_t Size,
                      bool ReadOnly) = 0;
  /// The pinned memory that starts at \p Ptr was released or unregistered.
  virtual void unpinned(std::uintptr_t Ptr) = 0;
  /// An async copy was issued on \p Stream as call number \p Sequence, by
  /// \p Site; \p Correlation is CUPTI's id of its GPU work.
  virtual void copyIssued(std::uint32_t Site, const CatalogRow &Api,
                          const CallArgs &Args, StreamKey Stream,
                          std::uint64_t Sequence,
                          std::uint64_t Correlation) = 0;
  /// The host knows that the work issued on \p Stream up to call number
  /// \p UpTo is finished.
  virtual void completed(StreamKey Stream, std::uint64_t UpTo) = 0;
  /// The GPU finished the copy of \p Correlation at \p EndNs (the
  /// activity records' clock).
  virtual void copyEnded(std::uint64_t Correlation, std::uint64_t EndNs) = 0;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_CALLOBSERVER_H
