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

#include "CallObserver.h"
#include "DeviceBuffers.h"
#include "ForkJoin.h"
#include "SiteCounters.h"
#include "TracedApi.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
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

/// The calling thread's number: threads are numbered in the order they
/// first ask, and a number is never given to another thread (thread ids are
/// reused once a thread ends).
std::uint32_t currentThread();

/// The stream a call's work goes to, as the table keys it; a call without a
/// stream argument (a blocking copy) runs on the default stream. The default
/// streams are the calling context's (Args.Context) and, per-thread, the
/// calling thread's.
StreamKey streamKey(const CallArgs &Args, bool PerThreadCall);

/// One catalogued call reached through one stack, and what its calls did.
struct Site : SiteCounters {
  const CatalogRow *Api = nullptr;
  /// The CUPTI function name ("cudaMemcpyAsync_v3020"), for the report.
  std::string Function;
  std::uint32_t Stack = 0;
  /// The streams its calls named (at most 64 kept).
  std::set<StreamKey> Streams;
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
  /// \p Observer, if any, learns of the calls (CallObserver.h); it must
  /// outlive the table's calls.
  explicit SiteTable(CallObserver *Observer = nullptr) : Observer(Observer) {}

  /// The site of \p Api called through \p Stack, made on first use.
  std::uint32_t siteFor(const CatalogRow *Api, const char *Function,
                        std::uint32_t Stack);

  /// One finished call at \p SiteIndex: \p HostNs spent inside it,
  /// \p Error its result (0: success), \p PerThreadCall whether a null stream
  /// meant the per-thread default stream, \p Correlation the id CUPTI gives
  /// the GPU work it started. Made on the calling thread: the pinning rule
  /// counts per thread.
  void recordCall(std::uint32_t SiteIndex, const CallArgs &Args,
                  bool PerThreadCall, std::uint64_t HostNs, int Error,
                  std::uint64_t Correlation);

  /// Another correlation id (a driver call made inside a traced runtime
  /// call) whose GPU work belongs to \p SiteIndex.
  void addCorrelation(std::uint64_t Correlation, std::uint32_t SiteIndex);

  /// One activity record: a copy (with its memory kinds), a memset or a
  /// kernel, by the correlation id of the call that issued it; \p EndNs is
  /// when the GPU finished it.
  void recordActivity(std::uint64_t Correlation, std::uint64_t GpuNs,
                      std::uint64_t Bytes, bool IsCopy, MemoryKind Src,
                      MemoryKind Dst, std::uint64_t EndNs = 0);

  void recordDroppedActivity(std::uint64_t Count);

  /// The number of the latest call: work issued so far has this number or
  /// a lower one.
  std::uint64_t sequence() const;

  /// Whether work issued on \p Stream now goes into a graph being captured.
  bool capturing(StreamKey Stream) const;
  /// The number of the capture \p Stream takes part in, if this table saw
  /// it begin.
  std::optional<std::uint32_t> captureOf(StreamKey Stream) const;

  /// Ends the trace: counts registrations left in place.
  void finish();

  /// A copy of the table, for writing.
  std::vector<Site> sites() const;
  ProcessFacts facts() const;

private:
  /// Work issued by each site: the sequence number of its latest call and
  /// how many calls issued it.
  struct Issued {
    std::uint64_t Last = 0;
    std::uint64_t Count = 0;
    /// The allocations its work since the stream's last sync touched.
    BufferSet Buffers;
  };
  using IssuedWork = std::map<std::uint32_t, Issued>;
  /// A thread of the program, numbered in the order it first made a call.
  using ThreadKey = std::uint32_t;
  static void add(IssuedWork &Into, const IssuedWork &From);
  /// Whether \p Stream synchronizes with the legacy default stream: the
  /// legacy stream itself, and created streams not cudaStreamNonBlocking.
  bool blocking(StreamKey Stream) const;
  /// Whether a wait for \p Waited covers \p Stream's earlier work: the
  /// stream itself and, for the legacy stream, every blocking stream of its
  /// device (CUDA's implicit synchronization).
  bool covers(StreamKey Waited, StreamKey Stream) const;
  /// Whether \p Stream may belong to context \p Context: a default stream
  /// is its context's; a created stream the context it was created in;
  /// where either is unknown (0), it may.
  bool inContext(std::uint32_t Context, StreamKey Stream) const;
  /// The context of \p Stream, 0 where unknown.
  std::uint32_t contextOf(StreamKey Stream) const;
  /// The host waited at site \p SiteIndex for \p Waited, issued on
  /// \p Streams, and knows it finished (cuda-async-sync-in-loop's rule).
  void synchronized(std::uint32_t SiteIndex, ThreadKey Thread,
                    std::uint64_t PreviousRun, std::uint64_t HostNs,
                    const IssuedWork &Waited,
                    const std::set<StreamKey> &Streams);
  /// Drains the work on every stream \p Covers accepts: what a wait for
  /// them leaves nothing of. Returns that work, and its streams.
  template <typename Pred>
  IssuedWork drain(Pred Covers, std::set<StreamKey> &Streams);
  /// Tells the observer that the streams \p Covers accepts are finished up
  /// to \p UpTo.
  template <typename Pred> void completedWhere(Pred Covers, std::uint64_t UpTo);
  /// Tells the observer that \p Stream is finished up to \p UpTo, and so
  /// is what it waited for before that (cudaStreamWaitEvent).
  void completed(StreamKey Stream, std::uint64_t UpTo, unsigned Depth = 0);
  /// Work issued as call \p Now on \p Stream, a created stream that
  /// synchronizes with the legacy stream of \p Context, runs after the
  /// legacy-stream work in flight (CUDA's implicit synchronization): a wait
  /// that covers it covers that work too, as a cudaStreamWaitEvent's
  /// dependency does.
  void dependOnLegacyWork(StreamKey Stream, std::uint32_t Context,
                          std::uint64_t Now);
  /// Work on a created stream that synchronizes with the legacy stream,
  /// touching \p Buffers, is being issued: legacy-stream work still in
  /// flight holds it back, unless that work ran once so far and touched
  /// one of the buffers too: then it must wait for it on any stream
  /// (DeviceBuffers.h; cuda-async-default-stream's rule).
  void heldBackByLegacyWork(std::uint32_t Context, const BufferSet &Buffers);
  /// captureOf, the lock held.
  std::optional<std::uint32_t> captureIdOf(StreamKey Stream) const;
  /// A graph launched on \p Stream as call \p Now: its work is the
  /// stream's, and the copies its capture recorded are in flight.
  void graphLaunched(const CallArgs &Args, StreamKey Stream, std::uint64_t Now,
                     std::uint64_t Correlation);

  CallObserver *Observer;
  mutable std::mutex Lock;
  std::vector<Site> Sites;
  std::map<std::pair<const CatalogRow *, std::uint32_t>, std::uint32_t> Index;
  std::unordered_map<std::uint64_t, std::uint32_t> Correlations;
  /// Sites that issued work on each stream since it was last synchronized.
  std::map<StreamKey, IssuedWork> IssuedSinceSync;
  /// Every stream work was issued on.
  std::set<StreamKey> KnownStreams;
  /// The live allocations, for what each call's work touches.
  DeviceBuffers Allocations;
  /// What each event stood for when it was recorded: the stream, its work
  /// then, and the sequence number of the record.
  struct RecordedEvent {
    StreamKey Stream = 0;
    IssuedWork Work;
    std::uint64_t Recorded = 0;
  };
  std::unordered_map<std::uintptr_t, RecordedEvent> EventWork;
  /// A stream's wait for another's event, or for the legacy stream's work
  /// (dependOnLegacyWork): its work from call number At on runs after the
  /// other stream's work up to UpTo.
  struct Dependency {
    std::uint64_t At = 0;
    StreamKey On = 0;
    std::uint64_t UpTo = 0;
  };
  std::map<StreamKey, std::vector<Dependency>> Dependencies;
  /// The recent stream waits, for the forks and joins of an iteration.
  StreamWaits Waits;
  /// Streams being captured into a graph, and the stream whose capture
  /// they joined: their work is recorded, not run.
  std::map<StreamKey, StreamKey> Capturing;
  /// The number of the capture each capturing origin stream runs.
  std::map<StreamKey, std::uint32_t> CaptureIds;
  /// The async copies each capture recorded (capture N at N - 1), in
  /// order, with the site and the arguments they were issued with.
  struct CapturedCopy {
    std::uint32_t Site = 0;
    CallArgs Args;
  };
  std::vector<std::vector<CapturedCopy>> CapturedCopies;
  static constexpr std::size_t MaxCapturedCopies = 1 << 16;
  /// The capture behind each graph and each executable graph.
  std::unordered_map<std::uintptr_t, std::uint32_t> GraphCapture, ExecCapture;
  /// The context each created stream was created in.
  std::unordered_map<std::uintptr_t, std::uint32_t> StreamContexts;
  /// Each (sync site, thread)'s previous run: a thread's loop is its own.
  std::map<std::pair<std::uint32_t, ThreadKey>, std::uint64_t> PreviousRuns;
  std::uint64_t Sequence = 0;
  /// Created streams that do not synchronize with the legacy default stream
  /// (cudaStreamNonBlocking).
  std::set<std::uintptr_t> NonBlockingStreams;
  /// Registered pointer -> the site that registered it.
  std::unordered_map<std::uintptr_t, std::uint32_t> Registered;
  /// Pinned pointer (allocated or registered) -> the site that pinned it.
  std::unordered_map<std::uintptr_t, std::uint32_t> PinnedBy;
  /// The pinning rule's loops are one thread's: per (site, thread), its
  /// previous run and the last release of memory it pinned; per thread,
  /// its last async transfer.
  std::map<std::pair<std::uint32_t, ThreadKey>, std::uint64_t> PinnedRun,
      PinnedReleased;
  std::map<ThreadKey, std::uint64_t> LastTransfer;
  /// Per legacy-stream site, the latest of its calls already counted as
  /// holding created-stream work back.
  std::map<std::uint32_t, std::uint64_t> LegacyCounted;
  /// A synchronization that waited for its own iteration's work is a
  /// finding once the loop is seen to use two streams (one stream cannot
  /// overlap its iterations): until then its runs wait here.
  struct SyncLoop {
    std::set<StreamKey> Streams;
    std::uint64_t Runs = 0, BlockedNs = 0;
    std::map<std::uint32_t, std::uint64_t> Waited;
  };
  std::map<std::pair<std::uint32_t, ThreadKey>, SyncLoop> SyncLoops;
  ProcessFacts Facts;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_SITETABLE_H
