//===- SiteTable.h - What each call site of a CUDA program did --*- C++ -*-===//
//
// The tracer's aggregation, free of CUPTI so that CPU tests drive it: one
// Site per (catalogued call, call stack), with what the calls there cost on
// the host, what their GPU work cost, the host memory kinds their copies
// touched, the streams they used, and the loop evidence the checks need:
// a synchronization that waits, again and again, for work issued since its
// own last run; pinning repeated at one site; registrations never undone.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_SITETABLE_H
#define CUDA_ASYNC_TRACE_RECORDER_SITETABLE_H

#include "TracedApi.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace cuda_async_trace {

/// CUPTI's CUpti_ActivityMemoryKind, numbered the same.
enum class MemoryKind : std::uint8_t {
  Unknown = 0,
  Pageable = 1,
  Pinned = 2,
  Device = 3,
  Array = 4,
  Managed = 5,
  DeviceStatic = 6,
  ManagedStatic = 7,
};
const char *memoryKindName(MemoryKind K);

/// Which default-stream semantics a call's stream argument had.
enum class StreamClass : std::uint8_t { Legacy, PerThread, Created };

/// The stream \p Stream of a call means, as CUDA defines the handles: 0 is
/// the legacy default stream unless the call is a per-thread variant (_ptsz,
/// compiled with --default-stream per-thread); cudaStreamLegacy is 0x1 and
/// cudaStreamPerThread 0x2.
StreamClass classifyStream(std::uintptr_t Stream, bool PerThreadCall);

struct Site {
  const CatalogRow *Api = nullptr;
  /// The CUPTI function name ("cudaMemcpyAsync_v3020"), for the report.
  std::string Function;
  std::uint32_t Stack = 0;

  std::uint64_t Calls = 0;
  /// Host time inside the call, summed: what the calling thread was blocked.
  std::uint64_t HostNs = 0;
  std::uint64_t Failures = 0;
  int FirstError = 0;
  /// Size arguments, summed, where the call has one.
  std::uint64_t ArgumentBytes = 0;

  /// What the GPU did for the calls here (activity records).
  std::uint64_t GpuRecords = 0;
  std::uint64_t GpuNs = 0;
  std::uint64_t GpuBytes = 0;
  /// "pageable->device", ... as the records named source and destination.
  std::set<std::string> MemoryKinds;
  /// Copies whose host side was pageable memory.
  std::uint64_t PageableCopies = 0;
  std::uint64_t PageableBytes = 0;

  /// Calls by the class of their stream argument.
  std::uint64_t LegacyStreamCalls = 0;
  std::uint64_t PerThreadStreamCalls = 0;
  std::uint64_t CreatedStreamCalls = 0;
  std::set<std::uintptr_t> Streams;

  /// A synchronization (or a blocking copy): runs that found work issued
  /// since the last synchronization of what it waits for, and of those, the
  /// runs that waited for two or more async operations issued after this
  /// same call last ran, each by a different call site (cuda-async-sync-in-
  /// loop's rule: it sits in the loop that issues the work and waits for each
  /// iteration's own work; a pipeline that waits for the previous
  /// iteration's stream, a loop of one operation, or a sync after an inner
  /// issuing loop, does not count), with their host time.
  std::uint64_t SyncsWithWork = 0;
  std::uint64_t RepeatedSyncsOfOwnWork = 0;
  std::uint64_t RepeatedSyncBlockedNs = 0;
  /// Work issued here that a repeated synchronization then waited for.
  std::uint64_t WaitedByRepeatedSync = 0;

  /// Registrations made here and never unregistered when the trace ended.
  std::uint64_t LeftRegistered = 0;

  /// A pinning call (cudaMallocHost, cudaHostRegister, ...): runs after
  /// which, since its previous run, memory it pinned was released or async
  /// transfers were issued (cuda-async-pinned-alloc-in-loop's rule: it pins
  /// in the loop that uses the memory; a set-up loop that pins a fixed set
  /// of buffers does not count), with their host time.
  std::uint64_t RepinnedInLoop = 0;
  std::uint64_t RepinnedNs = 0;

  /// Async work on the legacy default stream that serialized the program
  /// (cuda-async-default-stream's rule): issued while a created blocking
  /// stream had work in flight, or repeated (a transfer; a kernel with async
  /// transfers issued since its last run).
  std::uint64_t LegacySerialized = 0;

  /// The sequence number of this site's last call (0: none yet).
  std::uint64_t LastSequence = 0;
};

/// Process-wide facts.
struct ProcessFacts {
  std::uint64_t StreamsCreated = 0;
  std::uint64_t ActivityRecords = 0;
  /// Records whose call the tracer did not see (work of untraced calls).
  std::uint64_t UnmatchedActivity = 0;
  std::uint64_t DroppedActivity = 0;
};

class SiteTable {
public:
  /// The site of \p Api called through \p Stack, made on first use.
  std::uint32_t siteFor(const CatalogRow *Api, const char *Function,
                        std::uint32_t Stack);

  /// One finished call at \p SiteIndex: \p HostNs spent inside it,
  /// \p Error its result (0: success), \p PerThreadCall whether a null stream
  /// meant the per-thread default stream, \p Correlation the id CUPTI gives
  /// the GPU work it started.
  void recordCall(std::uint32_t SiteIndex, const CallArgs &Args,
                  bool PerThreadCall, std::uint64_t HostNs, int Error,
                  std::uint64_t Correlation);

  /// Another correlation id (a driver call made inside a traced runtime
  /// call) whose GPU work belongs to \p SiteIndex.
  void addCorrelation(std::uint64_t Correlation, std::uint32_t SiteIndex);

  /// One activity record: a copy (with its memory kinds), a memset or a
  /// kernel, by the correlation id of the call that issued it.
  void recordActivity(std::uint64_t Correlation, std::uint64_t GpuNs,
                      std::uint64_t Bytes, bool IsCopy, MemoryKind Src,
                      MemoryKind Dst);

  void recordDroppedActivity(std::uint64_t Count);

  /// Ends the trace: counts registrations left in place.
  void finish();

  /// A copy of the table, for writing.
  std::vector<Site> sites() const;
  ProcessFacts facts() const;

private:
  /// The streams synchronizations wait for: 0 stands for the legacy default
  /// stream, whatever handle named it.
  using StreamKey = std::uintptr_t;
  /// Work issued by each site: the sequence number of its latest call and
  /// how many calls issued it.
  struct Issued {
    std::uint64_t Last = 0;
    std::uint64_t Count = 0;
  };
  using IssuedWork = std::map<std::uint32_t, Issued>;
  static void add(IssuedWork &Into, const IssuedWork &From);
  void synchronized(Site &S, std::uint64_t PreviousRun, std::uint64_t HostNs,
                    const IssuedWork &Issued);

  mutable std::mutex Lock;
  std::vector<Site> Sites;
  std::map<std::pair<const CatalogRow *, std::uint32_t>, std::uint32_t> Index;
  std::unordered_map<std::uint64_t, std::uint32_t> Correlations;
  /// Sites that issued work on each stream since it was last synchronized.
  std::map<StreamKey, IssuedWork> IssuedSinceSync;
  /// What each event stood for when it was recorded: the stream, its work
  /// then, and the sequence number of the record.
  struct RecordedEvent {
    StreamKey Stream = 0;
    IssuedWork Work;
    std::uint64_t Recorded = 0;
  };
  std::unordered_map<std::uintptr_t, RecordedEvent> EventWork;
  std::uint64_t Sequence = 0;
  /// Created streams that do not synchronize with the legacy default stream
  /// (cudaStreamNonBlocking).
  std::set<std::uintptr_t> NonBlockingStreams;
  /// Registered pointer -> the site that registered it.
  std::unordered_map<std::uintptr_t, std::uint32_t> Registered;
  /// Pinned pointer (allocated or registered) -> the site that pinned it.
  std::unordered_map<std::uintptr_t, std::uint32_t> PinnedBy;
  /// Per site: the sequence number of the last release of memory it pinned.
  std::unordered_map<std::uint32_t, std::uint64_t> LastRelease;
  /// The sequence number of the last async transfer (copy or memset).
  std::uint64_t LastTransfer = 0;
  ProcessFacts Facts;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_SITETABLE_H
