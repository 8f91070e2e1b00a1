//===- SiteTable.cpp - What each call site of a CUDA program did ----------===//

#include "SiteTable.h"

#include <algorithm>
#include <iterator>

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

static bool issuesWork(CallKind K) {
  return K == CallKind::Copy || K == CallKind::Memset ||
         K == CallKind::KernelLaunch;
}

static bool pins(const CatalogRow &Api) {
  return (Api.Kind == CallKind::Allocate && Api.Memory == ApiMemory::Pinned) ||
         Api.Kind == CallKind::Register;
}

/// The default streams' keys: the legacy stream is 0 whichever handle named
/// it, the per-thread stream cudaStreamPerThread's 0x2.
constexpr std::uintptr_t LegacyKey = 0, PerThreadKey = 0x2;

void SiteTable::recordCall(std::uint32_t SiteIndex, const CallArgs &Args,
                           bool PerThreadCall, std::uint64_t HostNs, int Error,
                           std::uint64_t Correlation) {
  std::lock_guard<std::mutex> Guard(Lock);
  Site &S = Sites[SiteIndex];
  std::uint64_t PreviousRun = S.LastSequence;
  std::uint64_t Now = S.LastSequence = ++Sequence;
  ++S.Calls;
  S.HostNs += HostNs;
  if (Error != 0) {
    if (S.Failures++ == 0)
      S.FirstError = Error;
    // A failed call did nothing to track: no work, no registration.
    return;
  }
  if (Args.HasSize)
    S.ArgumentBytes += Args.Size;

  // The stream the call names; a call without one (a blocking copy) runs on
  // the default stream.
  StreamKey Key = PerThreadCall ? PerThreadKey : LegacyKey;
  StreamClass Class =
      PerThreadCall ? StreamClass::PerThread : StreamClass::Legacy;
  if (Args.HasStream) {
    Class = classifyStream(Args.Stream, PerThreadCall);
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
    Key = Class == StreamClass::Legacy      ? LegacyKey
          : Class == StreamClass::PerThread ? PerThreadKey
                                            : Args.Stream;
    if (S.Streams.size() < 64)
      S.Streams.insert(Key);
  }
  // Whether a created stream that synchronizes with the legacy stream (not
  // cudaStreamNonBlocking) has work in flight.
  auto CreatedBlockingBusy = [this] {
    for (const auto &[Stream, Work] : IssuedSinceSync)
      if (Stream != LegacyKey && Stream != PerThreadKey && !Work.empty() &&
          !NonBlockingStreams.count(Stream))
        return true;
    return false;
  };

  CallKind Kind = S.Api->Kind;
  if (issuesWork(Kind)) {
    if (Correlation)
      Correlations[Correlation] = SiteIndex;
    bool Transfer = Kind != CallKind::KernelLaunch;
    if (S.Api->Async || !Transfer) {
      if (Class == StreamClass::Legacy &&
          (CreatedBlockingBusy() ||
           (PreviousRun && (Transfer || LastTransfer > PreviousRun))))
        ++S.LegacySerialized;
      Issued &I = IssuedSinceSync[Key][SiteIndex];
      I.Last = Now;
      ++I.Count;
      if (Transfer)
        LastTransfer = Now;
      return;
    }
    // A blocking copy or memset waits for its stream first: on the legacy
    // default stream, that is every blocking stream too (CUDA's implicit
    // synchronization); on the per-thread stream, that stream alone.
    IssuedWork Waited;
    std::vector<StreamKey> Drained;
    for (const auto &[Stream, Work] : IssuedSinceSync) {
      bool Waits =
          Stream == Key || (Key == LegacyKey && Stream != PerThreadKey &&
                            !NonBlockingStreams.count(Stream));
      if (!Waits)
        continue;
      add(Waited, Work);
      Drained.push_back(Stream);
    }
    synchronized(S, PreviousRun, HostNs, Waited);
    for (StreamKey Stream : Drained)
      IssuedSinceSync.erase(Stream);
    return;
  }

  if (pins(*S.Api)) {
    auto Release = LastRelease.find(SiteIndex);
    if (PreviousRun &&
        (LastTransfer > PreviousRun ||
         (Release != LastRelease.end() && Release->second > PreviousRun))) {
      ++S.RepinnedInLoop;
      S.RepinnedNs += HostNs;
    }
    std::uintptr_t Pinned =
        Kind == CallKind::Register ? Args.Ptr : Args.Allocated;
    if (Pinned)
      PinnedBy[Pinned] = SiteIndex;
  }

  switch (Kind) {
  case CallKind::StreamSync: {
    auto It = IssuedSinceSync.find(Key);
    if (It != IssuedSinceSync.end()) {
      synchronized(S, PreviousRun, HostNs, It->second);
      IssuedSinceSync.erase(It);
    }
    break;
  }
  case CallKind::DeviceSync: {
    IssuedWork All;
    for (const auto &[Stream, Work] : IssuedSinceSync)
      add(All, Work);
    synchronized(S, PreviousRun, HostNs, All);
    IssuedSinceSync.clear();
    break;
  }
  case CallKind::EventRecord:
    if (Args.Event) {
      auto It = IssuedSinceSync.find(Key);
      EventWork[Args.Event] = {
          Key, It == IssuedSinceSync.end() ? IssuedWork() : It->second, Now};
    }
    break;
  case CallKind::EventSync: {
    auto It = EventWork.find(Args.Event);
    if (It == EventWork.end())
      break;
    synchronized(S, PreviousRun, HostNs, It->second.Work);
    // What the stream had issued before the record is done now.
    auto Stream = IssuedSinceSync.find(It->second.Stream);
    if (Stream != IssuedSinceSync.end()) {
      for (auto W = Stream->second.begin(); W != Stream->second.end();)
        W = W->second.Last <= It->second.Recorded ? Stream->second.erase(W)
                                                  : std::next(W);
      if (Stream->second.empty())
        IssuedSinceSync.erase(Stream);
    }
    break;
  }
  case CallKind::StreamCreate:
    ++Facts.StreamsCreated;
    // cudaStreamNonBlocking and CU_STREAM_NON_BLOCKING are both 0x1.
    if ((Args.Flags & 0x1) && Args.Allocated)
      NonBlockingStreams.insert(Args.Allocated);
    break;
  case CallKind::Register:
    if (Args.Ptr)
      Registered[Args.Ptr] = SiteIndex;
    break;
  case CallKind::Unregister:
  case CallKind::Release: {
    if (Kind == CallKind::Unregister)
      Registered.erase(Args.Ptr);
    auto It = PinnedBy.find(Args.Ptr);
    if (It != PinnedBy.end()) {
      LastRelease[It->second] = Now;
      PinnedBy.erase(It);
    }
    break;
  }
  default:
    break;
  }
}

void SiteTable::synchronized(Site &S, std::uint64_t PreviousRun,
                             std::uint64_t HostNs, const IssuedWork &Waited) {
  if (Waited.empty())
    return;
  ++S.SyncsWithWork;
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
  ++S.RepeatedSyncsOfOwnWork;
  S.RepeatedSyncBlockedNs += HostNs;
  for (const auto &[Issuer, Work] : Waited)
    if (Work.Last > PreviousRun)
      ++Sites[Issuer].WaitedByRepeatedSync;
}

void SiteTable::addCorrelation(std::uint64_t Correlation,
                               std::uint32_t SiteIndex) {
  std::lock_guard<std::mutex> Guard(Lock);
  Correlations[Correlation] = SiteIndex;
}

void SiteTable::recordActivity(std::uint64_t Correlation, std::uint64_t GpuNs,
                               std::uint64_t Bytes, bool IsCopy, MemoryKind Src,
                               MemoryKind Dst) {
  std::lock_guard<std::mutex> Guard(Lock);
  ++Facts.ActivityRecords;
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
