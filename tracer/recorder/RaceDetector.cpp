//===- RaceDetector.cpp - The host touching a copy still in flight --------===//

#include "RaceDetector.h"
#include "ThreadClock.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

namespace cuda_async_trace {

namespace {

/// Writes \p Message to stderr with write(2): safe in a handler.
void say(const char *Message) {
  const char *Prefix = "cuda-async-trace: ";
  ssize_t Ignored = write(2, Prefix, std::strlen(Prefix));
  Ignored = write(2, Message, std::strlen(Message));
  Ignored = write(2, "\n", 1);
  (void)Ignored;
}

/// Whether a loaded object is the CUDA driver's or runtime's, CUPTI's, or
/// the tracer's own: accesses from their code are not the program's.
bool isCudaLibrary(const char *Path) {
  const char *Name = std::strrchr(Path, '/');
  Name = Name ? Name + 1 : Path;
  for (const char *Prefix : {"libcuda.so", "libcudart", "libcupti",
                             "libnvidia-", "libcuda-async-trace-injection"})
    if (std::strncmp(Name, Prefix, std::strlen(Prefix)) == 0)
      return true;
  return false;
}

struct RangeCollector {
  std::pair<std::uintptr_t, std::uintptr_t> *Ranges;
  unsigned *Count;
  unsigned Max;
};

int collectRuntimeRanges(struct dl_phdr_info *Info, std::size_t, void *Arg) {
  auto *C = static_cast<RangeCollector *>(Arg);
  if (!Info->dlpi_name || !isCudaLibrary(Info->dlpi_name))
    return 0;
  for (int I = 0; I < Info->dlpi_phnum && *C->Count < C->Max; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type == PT_LOAD && (Ph.p_flags & PF_X))
      C->Ranges[(*C->Count)++] = {Info->dlpi_addr + Ph.p_vaddr,
                                  Info->dlpi_addr + Ph.p_vaddr + Ph.p_memsz};
  }
  return 0;
}

} // namespace

RaceDetector::RaceDetector(std::int64_t ClockOffsetNs, RaceCoverage Coverage)
    : ClockOffsetNs(ClockOffsetNs), Coverage(Coverage),
      PageSize(static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE))) {
  RangeCollector C{RuntimeRanges, &RuntimeRangeCount, MaxRuntimeRanges};
  dl_iterate_phdr(collectRuntimeRanges, &C);
#if !defined(__x86_64__)
  // Without a trap flag, a fault on a shared page could not run on.
  stop("race detection needs x86-64; it is off");
#endif
}

void RaceDetector::lock() {
  // Normal context only (handlers use lockInHandler).
  pid_t Self = cachedThreadId();
  if (Busy.test_and_set(std::memory_order_acquire)) {
    // Held by another thread (in an mprotect, mostly): what the wait costs
    // is part of the detector's cost.
    std::uint64_t Start = monotonicNs();
    while (Busy.test_and_set(std::memory_order_acquire))
      ;
    Facts.LockWaitNs += monotonicNs() - Start;
  }
  LockOwner.store(Self, std::memory_order_relaxed);
}

bool RaceDetector::lockInHandler() {
  pid_t Self = threadId();
  while (Busy.test_and_set(std::memory_order_acquire))
    if (LockOwner.load(std::memory_order_relaxed) == Self)
      return false;
  LockOwner.store(Self, std::memory_order_relaxed);
  return true;
}

void RaceDetector::unlock() {
  LockOwner.store(0, std::memory_order_relaxed);
  Busy.clear(std::memory_order_release);
}

void RaceDetector::warnOnce(std::atomic<bool> &Said, const char *Message) {
  if (!Said.exchange(true))
    say(Message);
}

bool RaceDetector::inRuntime(std::uintptr_t Pc) const {
  for (unsigned I = 0; I < RuntimeRangeCount; ++I)
    if (Pc >= RuntimeRanges[I].first && Pc < RuntimeRanges[I].second)
      return true;
  return false;
}

bool RaceDetector::reprotect(std::uintptr_t Begin, std::uintptr_t End,
                             RaceDetectorFacts::Cost &Paid, const Flight *Added,
                             bool Lifting) {
  Begin = pageDown(Begin);
  End = pageUp(End);
  // The flights and the steps on these pages, gathered first (a handler's
  // stack is small: past the cap, every flight is looked at per page).
  constexpr unsigned Cap = 32;
  const Flight *Near[Cap];
  unsigned NearCount = 0;
  bool Overflow = false;
  for (unsigned I = 0; I < FlightsHigh; ++I) {
    const Flight &F = Flights[I];
    if (!F.Used || F.Raced || !F.watches(Begin, End))
      continue;
    if (NearCount == Cap) {
      Overflow = true;
      break;
    }
    Near[NearCount++] = &F;
  }
  std::uintptr_t Stepped[MaxSteppers];
  unsigned SteppedCount = 0;
  for (const Stepper &S : Steppers)
    if (S.Tid.load(std::memory_order_relaxed) && S.Page >= Begin &&
        S.Page < End)
      Stepped[SteppedCount++] = S.Page;

  // Each page gets the strongest protection a watched flight on it asks
  // for (PROT_NONE for a device-to-host destination, PROT_READ for a
  // host-to-device source), none while a thread steps on it; runs of one
  // protection take one mprotect. Before: as the flights were before the
  // change (Added not yet among them, the Ending ones still).
  auto ProtectionOf = [&](std::uintptr_t Page, bool Before) {
    for (unsigned I = 0; I < SteppedCount; ++I)
      if (Stepped[I] == Page)
        return PROT_READ | PROT_WRITE;
    int Prot = PROT_READ | PROT_WRITE;
    auto Apply = [&](const Flight &F) {
      if (F.Used && !F.Raced && (Before ? &F != Added : !F.Ending) &&
          F.watches(Page, Page + PageSize))
        Prot = F.DeviceToHost ? PROT_NONE : (Prot & PROT_READ);
    };
    if (Overflow)
      for (unsigned I = 0; I < FlightsHigh && Prot != PROT_NONE; ++I)
        Apply(Flights[I]);
    else
      for (unsigned I = 0; I < NearCount && Prot != PROT_NONE; ++I)
        Apply(*Near[I]);
    return Prot;
  };
  // Where what each page had is known, a run is only the pages from its
  // first change to its last: an mprotect costs the call, and every thread
  // of the process its TLB after it (tracer/probes/README.md), whatever
  // it changes.
  bool Known = ProtectionsKnown && (Added || Lifting);
  bool Ok = true;
  std::uintptr_t RunStart = 0, RunEnd = 0;
  int RunProt = -1;
  auto Flush = [&] {
    if (RunEnd <= RunStart)
      return;
    std::uintptr_t To = RunEnd;
    std::uint64_t Start = monotonicNs();
    if (mprotect(reinterpret_cast<void *>(RunStart), To - RunStart, RunProt)) {
      Ok = false;
      ProtectionsKnown = false;
    }
    std::uint64_t Ns = monotonicNs() - Start;
    ++Facts.ProtectCalls;
    Facts.ProtectBytes += To - RunStart;
    Facts.ProtectNs += Ns;
    ++Paid.Calls;
    Paid.Bytes += To - RunStart;
    Paid.Ns += Ns;
  };
  for (std::uintptr_t Page = Begin; Page < End; Page += PageSize) {
    int Prot = ProtectionOf(Page, false);
    bool Changes = !Known || ProtectionOf(Page, true) != Prot;
    if (Prot != RunProt) {
      Flush();
      RunProt = Prot;
      RunStart = RunEnd = 0;
    }
    if (!Changes)
      continue;
    if (RunEnd <= RunStart)
      RunStart = Page;
    RunEnd = Page + PageSize;
  }
  Flush();
  return Ok;
}

bool RaceDetector::reprotectFlight(const Flight &F,
                                   RaceDetectorFacts::Cost &Paid) {
  bool Ok = true;
  for (const auto &[From, To] : F.ranges())
    if (From < To)
      Ok = reprotect(From, To, Paid) && Ok;
  return Ok;
}

template <typename Pred> void RaceDetector::lift(Pred Done) {
  // Not in a handler: the vector may grow here.
  std::vector<LiftedRange> &Lifted = LiftedRanges;
  Lifted.clear();
  for (unsigned I = 0; I < FlightsHigh; ++I) {
    Flight &F = Flights[I];
    if (!F.Used || !Done(F))
      continue;
    F.Ending = true;
    if (!F.Raced)
      Facts.BytesNeverWatched += F.LastBegin - F.WatchedEnd;
    for (const auto &[From, To] : F.ranges())
      if (From < To)
        Lifted.push_back({pageDown(From), pageUp(To), F.Allocation});
  }
  // Copies into slices of one buffer end together at a wait: their pages
  // are lifted by one mprotect, not one each, across the pages between
  // them that are open already (slices of other streams' copies that
  // ended before); reprotect leaves alone the pages whose protection does
  // not change, and keeps what the other flights need.
  std::sort(Lifted.begin(), Lifted.end(),
            [](const LiftedRange &A, const LiftedRange &B) {
              return A.From < B.From;
            });
  const std::uintptr_t MaxGap = 64 * PageSize;
  std::uintptr_t Begin = 0, End = 0, Allocation = 0;
  for (const LiftedRange &R : Lifted) {
    if (End && (R.From <= End ||
                (R.Allocation == Allocation && R.From - End <= MaxGap))) {
      if (R.To > End) {
        End = R.To;
        Allocation = R.Allocation;
      }
      continue;
    }
    if (End)
      reprotect(Begin, End, Facts.AtLift, nullptr, true);
    Begin = R.From;
    End = R.To;
    Allocation = R.Allocation;
  }
  if (End)
    reprotect(Begin, End, Facts.AtLift, nullptr, true);
  for (unsigned I = 0; I < FlightsHigh; ++I)
    if (Flights[I].Ending)
      Flights[I].Used = Flights[I].Ending = false;
  while (FlightsHigh && !Flights[FlightsHigh - 1].Used)
    --FlightsHigh;
}

void RaceDetector::pinned(std::uintptr_t Ptr, std::uint64_t Size,
                          bool ReadOnly) {
  // Registered read-only memory is left alone: lifting a protection makes
  // pages writable, which it may not be.
  if (ReadOnly || !Size)
    return;
  std::lock_guard<std::mutex> Guard(PinnedLock);
  Pinned[Ptr] = Ptr + Size;
}

void RaceDetector::unpinned(std::uintptr_t Ptr) {
  std::uintptr_t End;
  {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    auto It = Pinned.find(Ptr);
    if (It == Pinned.end())
      return;
    End = It->second;
    Pinned.erase(It);
  }
  lock();
  lift([&](const Flight &F) { return F.Begin >= Ptr && F.End <= End; });
  unlock();
}

void RaceDetector::copyIssued(std::uint32_t Site, const CatalogRow &Api,
                              const CallArgs &Args, StreamKey Stream,
                              std::uint64_t Sequence, std::uint64_t Correlation,
                              std::uint32_t Capture) {
  if (!Enabled.load(std::memory_order_relaxed) || !Args.HasSize ||
      Args.Size == 0)
    return;
  // The host side, by the copy's direction (cudaMemcpyKind: 1 host to
  // device, 2 device to host, 4 default); with unified addressing, the side
  // that lies in pinned memory. The allocation's start, 0 if none.
  auto InPinned = [this](std::uintptr_t P, std::uint64_t N) -> std::uintptr_t {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    auto It = Pinned.upper_bound(P);
    if (It == Pinned.begin())
      return 0;
    --It;
    return P >= It->first && P + N <= It->second ? It->first : 0;
  };
  CopyDirection Direction = Api.Direction;
  // A descriptor's kind, where the tracer read one (cudaMemcpy3DParms).
  if (Direction == CopyDirection::KindArg ||
      (Direction == CopyDirection::Descriptor && Args.HasCopyKind)) {
    if (!Args.HasCopyKind)
      return;
    Direction = Args.CopyKind == 1   ? CopyDirection::HostToDevice
                : Args.CopyKind == 2 ? CopyDirection::DeviceToHost
                : Args.CopyKind == 4 ? CopyDirection::Default
                                     : CopyDirection::Descriptor;
  }
  // Each side's bytes from its first to one past its last.
  std::uint64_t DstExtent = Args.Size, SrcExtent = Args.Size;
  if (Args.HasShape) {
    DstExtent =
        Args.Shape.extent(Args.Shape.DstPitch, Args.Shape.DstSlicePitch);
    SrcExtent =
        Args.Shape.extent(Args.Shape.SrcPitch, Args.Shape.SrcSlicePitch);
    if (!DstExtent || !SrcExtent)
      return;
  }
  if (Direction == CopyDirection::Default) {
    bool Src = InPinned(Args.Src, SrcExtent) != 0,
         Dst = InPinned(Args.Dst, DstExtent) != 0;
    if (Src == Dst)
      return;
    Direction = Src ? CopyDirection::HostToDevice : CopyDirection::DeviceToHost;
  }
  if (Direction != CopyDirection::HostToDevice &&
      Direction != CopyDirection::DeviceToHost)
    return;
  bool DeviceToHost = Direction == CopyDirection::DeviceToHost;
  std::uintptr_t Host = DeviceToHost ? Args.Dst : Args.Src;
  std::uint64_t Extent = DeviceToHost ? DstExtent : SrcExtent;
  std::uintptr_t Allocation = Host ? InPinned(Host, Extent) : 0;
  if (!Allocation)
    return;

  lock();
  unsigned Slot = 0;
  while (Slot < MaxFlights && Flights[Slot].Used)
    ++Slot;
  if (Slot == MaxFlights) {
    ++Facts.Unwatched;
    unlock();
    warnOnce(SaidFull, "more async copies in flight than the race detector "
                       "watches (4096): the rest are not watched");
    return;
  }
  Flight &F = Flights[Slot];
  F = Flight();
  F.Used = true;
  F.DeviceToHost = DeviceToHost;
  F.Begin = Host;
  F.End = Host + Extent;
  F.Allocation = Allocation;
  if (Args.HasShape) {
    // Rows that fill their pitch are contiguous bytes.
    std::uint64_t Pitch =
        DeviceToHost ? Args.Shape.DstPitch : Args.Shape.SrcPitch;
    std::uint64_t Slice =
        DeviceToHost ? Args.Shape.DstSlicePitch : Args.Shape.SrcSlicePitch;
    if (Pitch > Args.Shape.Width ||
        (Args.Shape.Depth > 1 && Slice > Pitch * Args.Shape.Height)) {
      F.Pitch = Pitch;
      F.SlicePitch = Args.Shape.Depth > 1 ? Slice : 0;
      F.Width = Args.Shape.Width;
      F.Height = Args.Shape.Height;
      F.Depth = Args.Shape.Depth;
    }
  }
  F.Capture = Capture;
  // Its ends now: the head, page by page to its last page, and the last
  // page; all of it with RaceCoverage::Whole.
  F.WatchedEnd = Coverage == RaceCoverage::Whole
                     ? F.End
                     : std::min(F.End, pageUp(F.Begin + SyncHeadBytes));
  // The end itself when the head reaches the last page.
  F.LastBegin = std::max(F.WatchedEnd, pageDown(F.End - 1));
  F.Stream = Stream;
  F.Sequence = Sequence;
  F.Site = Site;
  F.Correlation = Correlation;
  if (Slot >= FlightsHigh)
    FlightsHigh = Slot + 1;
  if (reprotect(F.Begin, F.WatchedEnd, Facts.AtIssue, &F)) {
    ++Facts.Watched;
    Facts.StridedCopies += Args.HasShape;
    Facts.GraphCopies += Capture != 0;
    if (F.LastBegin < F.End &&
        !reprotect(F.LastBegin, F.End, Facts.AtIssue, &F)) {
      // Its last page cannot be protected (unmapped meanwhile): the head
      // stays watched, the rest not.
      std::uintptr_t From = F.LastBegin;
      F.LastBegin = F.End;
      reprotect(From, F.End, Facts.AtIssue);
      unlock();
      warnOnce(SaidUnprotectable,
               "cannot protect the host side of an async copy (mprotect "
               "failed): race detection is off for such buffers");
      return;
    }
    unlock();
    return;
  }
  // mprotect refused (memory it cannot protect, a range partly unmapped):
  // this buffer goes unwatched, and its pages are as the others need.
  F.Used = false;
  reprotect(F.Begin, F.WatchedEnd, Facts.AtIssue);
  ++Facts.Unwatched;
  unlock();
  warnOnce(SaidUnprotectable,
           "cannot protect the host side of an async copy (mprotect "
           "failed): race detection is off for such buffers");
}

void RaceDetector::completed(StreamKey Stream, std::uint64_t UpTo) {
  lock();
  lift([&](const Flight &F) {
    return F.Stream == Stream && F.Sequence <= UpTo;
  });
  unlock();
}

void RaceDetector::copyEnded(std::uint64_t Correlation, std::uint64_t EndNs) {
  // The record may come before the race (kept with the flight) or after it.
  // A graph launch's copies share its correlation: whose end a record is
  // is not known when there are several, and none is kept.
  lock();
  unsigned Matching = 0;
  for (unsigned I = 0; I < FlightsHigh; ++I)
    if (Flights[I].Used && Flights[I].Correlation == Correlation)
      ++Matching;
  for (unsigned I = 0; I < FlightsHigh; ++I)
    if (Flights[I].Used && Flights[I].Correlation == Correlation &&
        (Matching == 1 || !Flights[I].Capture))
      Flights[I].CopyEndNs = EndNs;
  for (unsigned I = 0; I < RaceCount; ++I)
    if (Races[I].Correlation == Correlation && Matching <= 1)
      Races[I].CopyEndNs = EndNs;
  unlock();
}

void RaceDetector::graphLaunched(std::uint32_t Capture, StreamKey Stream,
                                 std::uint64_t Sequence) {
  if (!Capture)
    return;
  std::lock_guard<std::mutex> Guard(LaunchLock);
  Launches[Capture] = {Stream, Sequence};
}

namespace {
struct Marker {
  RaceDetector *Detector;
  StreamKey Stream;
  std::uint64_t UpTo;
  /// A graph's marker (Capture set): reached at each launch, never freed.
  std::uint32_t Capture;
};
} // namespace

void *RaceDetector::hostFunctionMarker(StreamKey Stream, std::uint64_t UpTo) {
  if (!Enabled.load(std::memory_order_relaxed))
    return nullptr;
  return new Marker{this, Stream, UpTo, 0};
}

void *RaceDetector::graphHostFunctionMarker(std::uint32_t Capture) {
  if (!Enabled.load(std::memory_order_relaxed) || !Capture)
    return nullptr;
  return new Marker{this, StreamKey(), 0, Capture};
}

void RaceDetector::graphPointReached(std::uint32_t Capture) {
  std::optional<std::pair<StreamKey, std::uint64_t>> Launch;
  {
    std::lock_guard<std::mutex> Guard(LaunchLock);
    auto It = Launches.find(Capture);
    if (It != Launches.end())
      Launch = It->second;
  }
  // The graph's copies (those before the marker finished, those after not
  // begun), and the launch stream's work before the launch. A launch the
  // table did not see (a child graph's node, a call it does not know):
  // what ran before is not known, and every flight counts as finished.
  // (Lifting too much can hide a race, never report a false one.)
  lock();
  lift([&](const Flight &F) {
    return F.Capture == Capture || !Launch ||
           (F.Stream == Launch->first && F.Sequence < Launch->second);
  });
  unlock();
}

void RaceDetector::hostFunctionReached(void *Data) {
  // Runs on the CUDA driver's thread, before the program's own host
  // function: the work issued before it on its stream is finished.
  auto *M = static_cast<Marker *>(Data);
  if (M->Capture) {
    M->Detector->graphPointReached(M->Capture);
    return;
  }
  M->Detector->completed(M->Stream, M->UpTo);
  delete M;
}

void RaceDetector::stop(const char *Why) {
  if (Enabled.exchange(false) && Why)
    warnOnce(SaidStopped, Why);
  lock();
  Facts.Stopped = true;
  for (unsigned I = 0; I < FlightsHigh; ++I)
    if (Flights[I].Used) {
      Flights[I].Used = false;
      for (const auto &[From, To] : Flights[I].ranges())
        if (From < To)
          mprotect(reinterpret_cast<void *>(pageDown(From)),
                   pageUp(To) - pageDown(From), PROT_READ | PROT_WRITE);
    }
  FlightsHigh = 0;
  unlock();
}

void RaceDetector::forkedChild() {
  clearThreadIdAfterFork();
  LockOwner.store(0, std::memory_order_relaxed);
  Busy.clear(std::memory_order_release);
  stop(nullptr);
}

std::vector<RawRace> RaceDetector::races(StackTable &Stacks) {
  lock();
  std::vector<Race> Copy(Races, Races + RaceCount);
  unlock();
  std::map<std::tuple<std::uint32_t, std::uint32_t, bool>, RawRace> Merged;
  for (const Race &R : Copy) {
    std::uint32_t StackId =
        Stacks.intern(Stack(R.Frames, R.Frames + R.FrameCount));
    auto [It, Inserted] = Merged.try_emplace({R.Site, StackId, R.Write});
    RawRace &Out = It->second;
    if (Inserted) {
      Out.CopySite = R.Site;
      Out.Stack = StackId;
      Out.Write = R.Write;
      Out.DeviceToHost = R.DeviceToHost;
      Out.CopyBytes = R.CopyBytes;
      Out.Offset = R.Offset;
      Out.AccessNs = R.AccessNs;
      Out.CopyEndNs = R.CopyEndNs;
    }
    ++Out.Count;
  }
  std::vector<RawRace> Out;
  for (auto &[Key, R] : Merged)
    Out.push_back(R);
  return Out;
}

RaceDetectorFacts RaceDetector::facts() const {
  auto *Self = const_cast<RaceDetector *>(this);
  Self->lock();
  RaceDetectorFacts F = Facts;
  Self->unlock();
  F.Coverage = Coverage == RaceCoverage::Whole ? "whole" : "ends";
  return F;
}

} // namespace cuda_async_trace
