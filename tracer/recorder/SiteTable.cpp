//===- SiteTable.cpp - What each call site of a CUDA program did ----------===//

#include "SiteTable.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <utility>

namespace cuda_async_trace {

const char *memoryKindName(MemoryKind K) {
  switch (K) {
  case MemoryKind::Pageable:
    return "pageable";
  case MemoryKind::Pinned:
    return "pinned";
  case MemoryKind::Device:
    return "device";
  case MemoryKind::Array:
    return "array";
  case MemoryKind::Managed:
    return "managed";
  case MemoryKind::DeviceStatic:
    return "device-static";
  case MemoryKind::ManagedStatic:
    return "managed-static";
  case MemoryKind::Unknown:
    break;
  }
  return "unknown";
}

StreamClass classifyStream(std::uintptr_t Stream, bool PerThreadCall) {
  constexpr std::uintptr_t StreamLegacy = 0x1, StreamPerThread = 0x2;
  if (Stream == StreamLegacy || (Stream == 0 && !PerThreadCall))
    return StreamClass::Legacy;
  if (Stream == StreamPerThread || Stream == 0)
    return StreamClass::PerThread;
  return StreamClass::Created;
}

std::uint32_t currentThread() {
  static std::atomic<std::uint32_t> Threads{0};
  thread_local const std::uint32_t Id = ++Threads;
  return Id;
}

StreamKey streamKey(const CallArgs &Args, bool PerThreadCall) {
  StreamClass Class =
      Args.HasStream
          ? classifyStream(Args.Stream, PerThreadCall)
          : (PerThreadCall ? StreamClass::PerThread : StreamClass::Legacy);
  switch (Class) {
  case StreamClass::Legacy:
    return StreamKey::legacy(Args.Context);
  case StreamClass::PerThread:
    return StreamKey::perThread(Args.Context, currentThread());
  case StreamClass::Created:
    break;
  }
  return Args.Stream;
}

std::uint32_t SiteTable::siteFor(const CatalogRow *Api, const char *Function,
                                 std::uint32_t Stack) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, Inserted] = Index.emplace(std::make_pair(Api, Stack),
                                      static_cast<std::uint32_t>(Sites.size()));
  if (Inserted) {
    Site S;
    S.Api = Api;
    S.Function = Function ? Function : Api->Name;
    S.Stack = Stack;
    Sites.push_back(std::move(S));
  }
  return It->second;
}

void SiteTable::add(IssuedWork &Into, const IssuedWork &From) {
  for (const auto &[Issuer, Work] : From) {
    Issued &I = Into[Issuer];
    I.Last = std::max(I.Last, Work.Last);
    I.Count += Work.Count;
  }
}

/// Whether a call's error says its arguments were wrong, in the runtime's
/// and the driver's codes alike: invalid value (1), invalid device pointer
/// (17), invalid handle (400), memory registered already or not registered
/// (712, 713). Not a sticky error, which every call after a fault returns.
static bool blamesArgument(int Error) {
  return Error == 1 || Error == 17 || Error == 400 || Error == 712 ||
         Error == 713;
}

static bool issuesWork(CallKind K) {
  return K == CallKind::Copy || K == CallKind::Memset ||
         K == CallKind::KernelLaunch || K == CallKind::GraphLaunch;
}

static bool pins(const CatalogRow &Api) {
  return (Api.Kind == CallKind::Allocate && Api.Memory == ApiMemory::Pinned) ||
         Api.Kind == CallKind::Register;
}

bool SiteTable::blocking(StreamKey Stream) const {
  return !Stream.isPerThread() && !NonBlockingStreams.count(Stream.Handle);
}

std::uint32_t SiteTable::contextOf(StreamKey Stream) const {
  if (Stream.isDefault())
    return Stream.Context;
  auto It = StreamContexts.find(Stream.Handle);
  return It == StreamContexts.end() ? 0 : It->second;
}

bool SiteTable::inContext(std::uint32_t Context, StreamKey Stream) const {
  std::uint32_t Of = contextOf(Stream);
  return !Context || !Of || Of == Context;
}

template <typename Pred>
SiteTable::IssuedWork SiteTable::drain(Pred Covers,
                                       std::set<StreamKey> &Streams) {
  IssuedWork Waited;
  for (auto It = IssuedSinceSync.begin(); It != IssuedSinceSync.end();) {
    if (!Covers(It->first)) {
      ++It;
      continue;
    }
    add(Waited, It->second);
    Streams.insert(It->first);
    It = IssuedSinceSync.erase(It);
  }
  return Waited;
}

bool SiteTable::covers(StreamKey Waited, StreamKey Stream) const {
  return Stream == Waited || (Waited.isLegacy() && blocking(Stream) &&
                              inContext(Waited.Context, Stream));
}

template <typename Pred>
void SiteTable::completedWhere(Pred Covers, std::uint64_t UpTo) {
  if (!Observer)
    return;
  for (StreamKey Stream : KnownStreams)
    if (Covers(Stream))
      completed(Stream, UpTo);
}

void SiteTable::completed(StreamKey Stream, std::uint64_t UpTo,
                          unsigned Depth) {
  Observer->completed(Stream, UpTo);
  // Work that ran after another stream's event implies that stream's work
  // up to the event is finished too (a chain of waits, depth bounded).
  auto It = Dependencies.find(Stream);
  if (It == Dependencies.end() || Depth > 16)
    return;
  std::vector<Dependency> Implied;
  auto &List = It->second;
  for (auto D = List.begin(); D != List.end();) {
    if (D->At > UpTo) {
      ++D;
      continue;
    }
    Implied.push_back(*D);
    D = List.erase(D);
  }
  for (const Dependency &D : Implied)
    completed(D.On, D.UpTo, Depth + 1);
}

void SiteTable::dependOnLegacyWork(StreamKey Stream, std::uint32_t Context,
                                   std::uint64_t Now) {
  auto Legacy = IssuedSinceSync.find(StreamKey::legacy(Context));
  if (Legacy == IssuedSinceSync.end())
    return;
  std::uint64_t Last = 0;
  for (const auto &[Issuer, Work] : Legacy->second)
    Last = std::max(Last, Work.Last);
  // One dependency per stretch of legacy work: a loop issuing on the
  // stream adds none while no new legacy work came.
  std::vector<Dependency> &List = Dependencies[Stream];
  for (const Dependency &D : List)
    if (D.On == Legacy->first && D.UpTo >= Last)
      return;
  List.push_back({Now, Legacy->first, Last});
}

void SiteTable::heldBackByLegacyWork(std::uint32_t Context,
                                     const BufferSet &Buffers) {
  auto Legacy = IssuedSinceSync.find(StreamKey::legacy(Context));
  if (Legacy == IssuedSinceSync.end())
    return;
  for (const auto &[Issuer, Work] : Legacy->second) {
    // The later work takes what the legacy work, run once so far, made or
    // read: it waits for it on any stream. Legacy work a loop issues again
    // holds back the next pass's work, which takes another chunk of the
    // buffer (the static contract's dependency rule).
    if (Sites[Issuer].Calls == 1 && Work.Buffers.shares(Buffers))
      continue;
    std::uint64_t &Counted = LegacyCounted[Issuer];
    if (Work.Last > Counted) {
      ++Sites[Issuer].LegacySerialized;
      Counted = Work.Last;
    }
  }
}

void SiteTable::recordCall(std::uint32_t SiteIndex, const CallArgs &Args,
                           bool PerThreadCall, std::uint64_t HostNs, int Error,
                           std::uint64_t Correlation) {
  ThreadKey Thread = currentThread();
  std::lock_guard<std::mutex> Guard(Lock);
  Site &S = Sites[SiteIndex];
  std::uint64_t Now = ++Sequence;
  // A loop is one thread's: the previous run is this thread's.
  std::uint64_t PreviousRun =
      std::exchange(PreviousRuns[{SiteIndex, Thread}], Now);
  ++S.Calls;
  S.HostNs += HostNs;
  if (Error != 0) {
    bool Argument = blamesArgument(Error);
    if (S.Failures++ == 0 || (Argument && S.ArgumentFailures == 0))
      S.FirstError = Error;
    S.ArgumentFailures += Argument;
    // A failed call did nothing to track: no work, no registration, no
    // wait (a query that says "not ready" included).
    return;
  }
  if (Args.HasSize)
    S.ArgumentBytes += Args.Size;

  StreamKey Key = streamKey(Args, PerThreadCall);
  StreamClass Class = Key.isLegacy()      ? StreamClass::Legacy
                      : Key.isPerThread() ? StreamClass::PerThread
                                          : StreamClass::Created;
  if (Args.HasStream) {
    switch (Class) {
    case StreamClass::Legacy:
      ++S.LegacyStreamCalls;
      break;
    case StreamClass::PerThread:
      ++S.PerThreadStreamCalls;
      break;
    case StreamClass::Created:
      ++S.CreatedStreamCalls;
      break;
    }
    if (S.Streams.size() < 64)
      S.Streams.insert(Key);
  }

  CallKind Kind = S.Api->Kind;
  // cudaDeviceSynchronize, and cudaFree's implicit synchronization, wait
  // for the calling thread's device alone.
  auto OnDevice = [&](StreamKey Stream) {
    return inContext(Args.Context, Stream);
  };
  if (issuesWork(Kind)) {
    // Work issued on a capturing stream becomes a graph's node: nothing is
    // in flight until the graph is launched. Its async copies are kept:
    // each launch of the graph issues them again.
    if (Capturing.count(Key)) {
      std::optional<std::uint32_t> Id = captureIdOf(Key);
      if (Kind == CallKind::Copy && S.Api->Async && Id &&
          CapturedCopies[*Id - 1].size() < MaxCapturedCopies)
        CapturedCopies[*Id - 1].push_back({SiteIndex, Args});
      return;
    }
    if (Correlation)
      Correlations[Correlation] = SiteIndex;
    bool Transfer = Kind == CallKind::Copy || Kind == CallKind::Memset;
    if (S.Api->Async || !Transfer) {
      // Work on a created blocking stream waits for legacy-stream work in
      // flight of its device: that work holds it back.
      BufferSet Buffers = Allocations.touchedBy(Kind, Args);
      if (Class == StreamClass::Created && blocking(Key)) {
        std::uint32_t Context = contextOf(Key);
        if (!Context)
          Context = Args.Context;
        heldBackByLegacyWork(Context, Buffers);
        dependOnLegacyWork(Key, Context, Now);
      }
      Issued &I = IssuedSinceSync[Key][SiteIndex];
      I.Last = Now;
      ++I.Count;
      I.Buffers.add(Buffers);
      KnownStreams.insert(Key);
      if (Transfer)
        LastTransfer[Thread] = Now;
      if (Kind == CallKind::Copy && Observer)
        Observer->copyIssued(SiteIndex, *S.Api, Args, Key, Now, Correlation, 0);
      if (Kind == CallKind::GraphLaunch)
        graphLaunched(Args, Key, Now, Correlation);
      return;
    }
    // A blocking copy or memset waits for its stream first: on the legacy
    // default stream, that is every blocking stream too (CUDA's implicit
    // synchronization); on the per-thread stream, that stream alone.
    auto Covers = [&](StreamKey Stream) { return covers(Key, Stream); };
    std::set<StreamKey> Streams;
    IssuedWork Waited = drain(Covers, Streams);
    synchronized(SiteIndex, Thread, PreviousRun, HostNs, Waited, Streams);
    completedWhere(Covers, Now);
    return;
  }

  if (Kind == CallKind::Allocate && Args.HasSize)
    Allocations.allocated(Args.Allocated, Args.Size);

  if (pins(*S.Api)) {
    // A loop is one thread running this pinning call again after it
    // transferred, or released what the call pinned, since its previous
    // run: threads that each pin once are not a loop.
    std::uint64_t &Previous = PinnedRun[{SiteIndex, Thread}];
    auto Released = PinnedReleased.find({SiteIndex, Thread});
    if (Previous &&
        (LastTransfer[Thread] > Previous ||
         (Released != PinnedReleased.end() && Released->second > Previous))) {
      ++S.RepinnedInLoop;
      S.RepinnedNs += HostNs;
    }
    Previous = Now;
    std::uintptr_t Pinned =
        Kind == CallKind::Register ? Args.Ptr : Args.Allocated;
    if (Pinned) {
      PinnedBy[Pinned] = SiteIndex;
      // cudaHostRegisterReadOnly (0x08): the memory may be read-only.
      if (Observer && Args.HasSize)
        Observer->pinned(Pinned, Args.Size,
                         Kind == CallKind::Register && (Args.Flags & 0x08));
    }
  }

  switch (Kind) {
  case CallKind::StreamSync:
  case CallKind::StreamQuery: {
    if (Kind == CallKind::StreamSync) {
      std::set<StreamKey> Streams;
      IssuedWork Waited =
          drain([&](StreamKey Stream) { return Stream == Key; }, Streams);
      synchronized(SiteIndex, Thread, PreviousRun, HostNs, Waited, Streams);
    }
    // A query that succeeds says the stream is idle too. Whether a wait for
    // the legacy stream covers the blocking streams' earlier work is not
    // documented: the observer (which must not report work the host may
    // have waited for) takes it as covered.
    completedWhere([&](StreamKey Stream) { return covers(Key, Stream); }, Now);
    break;
  }
  case CallKind::DeviceSync: {
    std::set<StreamKey> Streams;
    IssuedWork All = drain(OnDevice, Streams);
    synchronized(SiteIndex, Thread, PreviousRun, HostNs, All, Streams);
    completedWhere(OnDevice, Now);
    break;
  }
  case CallKind::EventRecord:
    if (Args.Event) {
      auto It = IssuedSinceSync.find(Key);
      EventWork[Args.Event] = {
          Key, It == IssuedSinceSync.end() ? IssuedWork() : It->second, Now};
    }
    break;
  case CallKind::EventSync:
  case CallKind::EventQuery: {
    auto It = EventWork.find(Args.Event);
    if (It == EventWork.end())
      break;
    const RecordedEvent &E = It->second;
    // What the stream had issued before the record is done now.
    auto Stream = IssuedSinceSync.find(E.Stream);
    if (Stream != IssuedSinceSync.end()) {
      for (auto W = Stream->second.begin(); W != Stream->second.end();)
        W = W->second.Last <= E.Recorded ? Stream->second.erase(W)
                                         : std::next(W);
      if (Stream->second.empty())
        IssuedSinceSync.erase(Stream);
    }
    if (Kind == CallKind::EventSync)
      synchronized(SiteIndex, Thread, PreviousRun, HostNs, E.Work,
                   E.Work.empty() ? std::set<StreamKey>()
                                  : std::set<StreamKey>{E.Stream});
    completedWhere([&](StreamKey Stream) { return covers(E.Stream, Stream); },
                   E.Recorded);
    break;
  }
  case CallKind::StreamWaitEvent: {
    auto It = EventWork.find(Args.Event);
    if (It == EventWork.end())
      break;
    auto Capture = Capturing.find(It->second.Stream);
    if (Capture != Capturing.end())
      // Waiting for a capturing stream's event joins its capture.
      Capturing[Key] = Capture->second;
    else {
      Dependencies[Key].push_back(
          {Now, It->second.Stream, It->second.Recorded});
      Waits.add({Now, Key, It->second.Stream, It->second.Recorded});
    }
    break;
  }
  case CallKind::CaptureBegin:
    Capturing[Key] = Key;
    CapturedCopies.emplace_back();
    CaptureIds[Key] = static_cast<std::uint32_t>(CapturedCopies.size());
    break;
  case CallKind::CaptureEnd: {
    for (auto It = Capturing.begin(); It != Capturing.end();)
      It = It->second == Key ? Capturing.erase(It) : std::next(It);
    auto Id = CaptureIds.find(Key);
    if (Id == CaptureIds.end())
      break;
    // The graph it returned (a handle freed and made again names the new
    // graph).
    if (Args.Allocated)
      GraphCapture[Args.Allocated] = Id->second;
    CaptureIds.erase(Id);
    break;
  }
  case CallKind::GraphInstantiate: {
    if (!Args.Allocated)
      break;
    // A handle freed and made again names the new executable graph.
    auto It = GraphCapture.find(Args.Graph);
    if (It != GraphCapture.end())
      ExecCapture[Args.Allocated] = It->second;
    else
      ExecCapture.erase(Args.Allocated);
    break;
  }
  case CallKind::StreamCreate:
    ++Facts.StreamsCreated;
    // cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both 0x1.
    if ((Args.Flags & 0x1) && Args.Allocated)
      NonBlockingStreams.insert(Args.Allocated);
    if (Args.Allocated)
      StreamContexts[Args.Allocated] = Args.Context;
    break;
  case CallKind::Register:
    if (Args.Ptr)
      Registered[Args.Ptr] = SiteIndex;
    break;
  case CallKind::Unregister:
  case CallKind::Release: {
    // cudaFree and cudaFreeHost synchronize the device before they release:
    // a host wait for everything, though not a synchronization the program
    // wrote.
    if (Kind == CallKind::Release && !S.Api->Async) {
      std::set<StreamKey> Streams;
      drain(OnDevice, Streams);
      completedWhere(OnDevice, Now);
    }
    if (Kind == CallKind::Unregister)
      Registered.erase(Args.Ptr);
    else
      Allocations.released(Args.Ptr);
    auto It = PinnedBy.find(Args.Ptr);
    if (It != PinnedBy.end()) {
      PinnedReleased[{It->second, Thread}] = Now;
      PinnedBy.erase(It);
      if (Observer)
        Observer->unpinned(Args.Ptr);
    }
    break;
  }
  default:
    break;
  }
}

void SiteTable::graphLaunched(const CallArgs &Args, StreamKey Stream,
                              std::uint64_t Now, std::uint64_t Correlation) {
  if (!Observer)
    return;
  // An executable graph's capture; a graph launched as its own (a runtime
  // that does not tell them apart) its own.
  std::uint32_t Id = 0;
  if (auto Exec = ExecCapture.find(Args.Graph); Exec != ExecCapture.end())
    Id = Exec->second;
  else if (auto Graph = GraphCapture.find(Args.Graph);
           Graph != GraphCapture.end())
    Id = Graph->second;
  Observer->graphLaunched(Id, Stream, Now);
  if (!Id)
    return;
  const std::vector<CapturedCopy> &Copies = CapturedCopies[Id - 1];
  for (const CapturedCopy &C : Copies)
    Observer->copyIssued(C.Site, *Sites[C.Site].Api, C.Args, Stream, Now,
                         Correlation, Id);
}

void SiteTable::synchronized(std::uint32_t SiteIndex, ThreadKey Thread,
                             std::uint64_t PreviousRun, std::uint64_t HostNs,
                             const IssuedWork &Waited,
                             const std::set<StreamKey> &Streams) {
  if (Waited.empty())
    return;
  ++Sites[SiteIndex].SyncsWithWork;
  if (PreviousRun == 0)
    return;
  // The operations issued since this call last ran. A site's count covers
  // its calls since the stream was last synchronized: where that was this
  // call's previous run (the loop's own sync), they are exactly this
  // iteration's. A site that issued more than once in that span ran in a
  // loop of its own that this call follows: a sync after an inner issuing
  // loop, which the check's contract accepts.
  std::uint64_t Own = 0;
  for (const auto &[Issuer, Work] : Waited)
    if (Work.Last > PreviousRun) {
      if (Work.Count > 1)
        return;
      Own += Work.Count;
    }
  if (Own < 2)
    return;
  // Work of this iteration still in flight after the wait (the other slot
  // of a double buffer): the wait did not drain the iteration, so the
  // iterations overlap. (Other threads' work in flight counts too: which
  // thread issued it is not kept, and taking it for this loop's can only
  // hide a finding.)
  for (const auto &[Stream, Work] : IssuedSinceSync)
    for (const auto &[Issuer, W] : Work)
      if (W.Last > PreviousRun)
        return;
  SyncLoop &Loop = SyncLoops[{SiteIndex, Thread}];
  // Streams the iteration forked to and joined back count as one
  // (ForkJoin.h).
  std::set<StreamKey> Created;
  for (StreamKey Stream : Streams)
    if (!Stream.isLegacy())
      Created.insert(Stream);
  for (StreamKey Stream : Waits.joined(Created, PreviousRun))
    Loop.Streams.insert(Stream);
  ++Loop.Runs;
  Loop.BlockedNs += HostNs;
  for (const auto &[Issuer, Work] : Waited)
    if (Work.Last > PreviousRun)
      ++Loop.Waited[Issuer];
  // The iterations could overlap only if the loop's work goes to two
  // streams (or more): from then on its waits are the finding, those
  // before included.
  if (Loop.Streams.size() < 2)
    return;
  Site &S = Sites[SiteIndex];
  S.RepeatedSyncsOfOwnWork += Loop.Runs;
  S.RepeatedSyncBlockedNs += Loop.BlockedNs;
  for (const auto &[Issuer, N] : Loop.Waited)
    Sites[Issuer].WaitedByRepeatedSync += N;
  Loop.Runs = Loop.BlockedNs = 0;
  Loop.Waited.clear();
}

void SiteTable::addCorrelation(std::uint64_t Correlation,
                               std::uint32_t SiteIndex) {
  std::lock_guard<std::mutex> Guard(Lock);
  Correlations[Correlation] = SiteIndex;
}

void SiteTable::recordActivity(std::uint64_t Correlation, std::uint64_t GpuNs,
                               std::uint64_t Bytes, bool IsCopy, MemoryKind Src,
                               MemoryKind Dst, std::uint64_t EndNs) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Facts.ActivityRecords;
  if (IsCopy && EndNs && Observer)
    Observer->copyEnded(Correlation, EndNs);
  auto It = Correlations.find(Correlation);
  if (It == Correlations.end()) {
    ++Facts.UnmatchedActivity;
    return;
  }
  Site &S = Sites[It->second];
  ++S.GpuRecords;
  S.GpuNs += GpuNs;
  S.GpuBytes += Bytes;
  if (!IsCopy)
    return;
  std::string Kinds = memoryKindName(Src);
  Kinds += "->";
  Kinds += memoryKindName(Dst);
  S.MemoryKinds.insert(Kinds);
  // The rule behind cuda-async-pageable-copy: the DMA engines cannot read or
  // write pageable memory, so the driver stages it and the call waits.
  if (Src == MemoryKind::Pageable || Dst == MemoryKind::Pageable) {
    ++S.PageableCopies;
    S.PageableBytes += Bytes;
  }
}

std::uint64_t SiteTable::sequence() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Sequence;
}

bool SiteTable::capturing(StreamKey Stream) const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Capturing.count(Stream) > 0;
}

std::optional<std::uint32_t> SiteTable::captureOf(StreamKey Stream) const {
  std::lock_guard<std::mutex> Guard(Lock);
  return captureIdOf(Stream);
}

std::optional<std::uint32_t> SiteTable::captureIdOf(StreamKey Stream) const {
  auto Capture = Capturing.find(Stream);
  if (Capture == Capturing.end())
    return std::nullopt;
  auto Id = CaptureIds.find(Capture->second);
  if (Id == CaptureIds.end())
    return std::nullopt;
  return Id->second;
}

void SiteTable::recordDroppedActivity(std::uint64_t Count) {
  std::lock_guard<std::mutex> Guard(Lock);
  Facts.DroppedActivity += Count;
}

void SiteTable::finish() {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &[Ptr, SiteIndex] : Registered)
    ++Sites[SiteIndex].LeftRegistered;
  Registered.clear();
}

std::vector<Site> SiteTable::sites() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Sites;
}

ProcessFacts SiteTable::facts() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Facts;
}

} // namespace cuda_async_trace
