//===- ForkJoin.h - Streams one iteration forks and joins back --*- C++ -*-===//
//
// cuda-async-sync-in-loop's contract calls a loop whose iteration forks
// work from one stream to others and joins it back one stream: each other
// stream waits for an event the first recorded earlier in the iteration,
// and the first waits for an event the other recorded after its work
// (cudaEventRecord and cudaStreamWaitEvent both ways). The GPU runs such
// iterations in order whatever the host does, so a wait in the loop costs
// no overlap. The tracer sees the waits as they are issued and folds the
// streams so joined into one before it counts a loop's streams.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_FORKJOIN_H
#define CUDA_ASYNC_TRACE_RECORDER_FORKJOIN_H

#include "CallObserver.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>

namespace cuda_async_trace {

/// One cudaStreamWaitEvent: call number At made Waiter wait for the event
/// recorded as call number Recorded on On.
struct StreamWait {
  std::uint64_t At = 0;
  StreamKey Waiter, On;
  std::uint64_t Recorded = 0;
};

/// The recent stream waits of a process, oldest first, bounded.
class StreamWaits {
public:
  void add(const StreamWait &W);

  /// \p Streams with each stream that waited for another's event and was
  /// waited for by it, both records and both waits after call number
  /// \p Since (one iteration's fork and join), replaced by the least of the
  /// streams so joined.
  std::set<StreamKey> joined(const std::set<StreamKey> &Streams,
                             std::uint64_t Since) const;

private:
  static constexpr std::size_t MaxWaits = 1024;
  std::deque<StreamWait> Waits;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_FORKJOIN_H
