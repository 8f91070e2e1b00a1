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

/// A stream as the site table keys it. A created stream is its handle. The
/// default streams are not one stream each: the legacy default stream is one
/// per device (context), whatever handle named it, and the per-thread
/// default stream one per thread and device.
struct StreamKey {
  /// A created stream's handle; LegacyHandle or PerThreadHandle for the
  /// default streams.
  std::uintptr_t Handle = 0;
  /// A default stream's context (CUPTI's context id; 0 where unknown).
  std::uint32_t Context = 0;
  /// A per-thread default stream's thread (SiteTable numbers them).
  std::uint32_t Thread = 0;

  static constexpr std::uintptr_t LegacyHandle = 0, PerThreadHandle = 0x2;
  StreamKey() = default;
  /// A created stream, or the legacy default stream of an unknown context.
  StreamKey(std::uintptr_t Handle) : Handle(Handle) {}
  static StreamKey legacy(std::uint32_t Context) {
    StreamKey K;
    K.Context = Context;
    return K;
  }
  static StreamKey perThread(std::uint32_t Context, std::uint32_t Thread) {
    StreamKey K(PerThreadHandle);
    K.Context = Context;
    K.Thread = Thread;
    return K;
  }
  bool isLegacy() const { return Handle == LegacyHandle; }
  bool isPerThread() const { return Handle == PerThreadHandle; }
  bool isDefault() const { return isLegacy() || isPerThread(); }
  friend bool operator==(const StreamKey &A, const StreamKey &B) {
    return A.Handle == B.Handle && A.Context == B.Context &&
           A.Thread == B.Thread;
  }
  friend bool operator!=(const StreamKey &A, const StreamKey &B) {
    return !(A == B);
  }
  friend bool operator<(const StreamKey &A, const StreamKey &B) {
    if (A.Handle != B.Handle)
      return A.Handle < B.Handle;
    if (A.Context != B.Context)
      return A.Context < B.Context;
    return A.Thread < B.Thread;
  }
};

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
  /// \p Capture: when a graph launch issued it, the stream capture that
  /// recorded it (the site table numbers them from 1); else 0.
  virtual void copyIssued(std::uint32_t Site, const CatalogRow &Api,
                          const CallArgs &Args, StreamKey Stream,
                          std::uint64_t Sequence, std::uint64_t Correlation,
                          std::uint32_t Capture) = 0;
  /// An executable graph was launched on \p Stream as call number
  /// \p Sequence; \p Capture is the capture that recorded it (0: a graph
  /// this table did not see captured). Its copies come as copyIssued.
  virtual void graphLaunched(std::uint32_t Capture, StreamKey Stream,
                             std::uint64_t Sequence) = 0;
  /// The host knows that the work issued on \p Stream up to call number
  /// \p UpTo is finished.
  virtual void completed(StreamKey Stream, std::uint64_t UpTo) = 0;
  /// The GPU finished the copy of \p Correlation at \p EndNs (the
  /// activity records' clock).
  virtual void copyEnded(std::uint64_t Correlation, std::uint64_t EndNs) = 0;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_CALLOBSERVER_H
