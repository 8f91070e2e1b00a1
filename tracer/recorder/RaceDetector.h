//===- RaceDetector.h - The host touching a copy in flight -----*- C++ -*-===//
//
// cuda-async-unsynchronized-access at run time, by page protection. The DMA
// engines do not go through the CPU's page tables, so while an async copy
// whose host side is pinned or registered memory is in flight, its pages can
// be protected from the host alone: a device-to-host destination PROT_NONE
// (the host must neither read nor write it), a host-to-device source
// PROT_READ (the host must not write it). The copy runs at full speed with
// correct data (design/probes/mprotect_pinned.cu, measured on an H100), and a
// host access faults at its exact address. The protection is lifted when the
// host learns that the copy finished: a wait that covers it, a successful
// query, a host function enqueued after it starting to run, the release or
// unregistration of its memory, the end of the process.
//
// A fault inside an in-flight buffer is a race: recorded (read or write,
// address, the stack), the buffer's protection lifted, the instruction run
// again. A fault on a protected page outside every in-flight buffer (buffers
// share pages) runs on with nothing recorded: the page is opened for one
// instruction (the x86-64 trap flag) and protected again. Any other fault is
// not ours (SignalHandlers.h chains it to the program's own handler).
//
// An mprotect costs 2-3 us a call and 10-15 ns per KiB on an H100's host
// (docs/runtime-trace.md, "What it costs"), and there it empties the TLB
// of the thread that goes on (tracer/probes/README.md): a page is given a
// protection only when the flights on it change what it needs, and a wait
// lifts its flights' pages in one call across pages already open between
// them. Protecting and lifting a 32 MiB copy whole costs about as long as
// the copy itself, on the thread that issues or waits. So a copy's ends
// are watched: its first SyncHeadBytes (an access right after the issue, a
// loop from the buffer's start) and its last page (the last element,
// polled as a "done" flag), both protected before the call returns. With RaceCoverage::Whole the whole host side is
// protected before the call returns, its first moments included, at a cost
// larger copies feel. Lifting is synchronous too: after the host's wait,
// its own accesses and its system calls on the buffer (which fail with
// EFAULT on a protected page, not fault) must find it open.
//
// A 2D or 3D copy's host side is rows with gaps between them: its pages
// from the first row to the last are protected, and an access in a gap
// (other data of the program's) runs on as one on a shared page does.
// A copy a launched graph runs (recorded by a stream capture) is watched
// like one issued on the launch's stream; a host function the capture
// recorded runs at each launch after the copies recorded before it.
//
// Everything the signal handlers touch is a fixed-size table behind a
// spinlock, allocated up front: no malloc in a handler. Plain POSIX, so CPU
// tests drive it through a stand-in CUDA runtime.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_RACEDETECTOR_H
#define CUDA_ASYNC_TRACE_RECORDER_RACEDETECTOR_H

#include "CallObserver.h"
#include "CallStacks.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cuda_async_trace {

/// What of each copy's host side is watched (cuda-async-trace --races,
/// --races=full; CUDA_ASYNC_TRACE_RACES=1 or full).
enum class RaceCoverage {
  /// Its first 256 KiB and its last page, before the copy call returns.
  Ends,
  /// All of it, before the copy call returns.
  Whole,
};

/// The coverage CUDA_ASYNC_TRACE_RACES asks for ("1": Ends, "full":
/// Whole), or none when it asks for no race detection.
inline std::optional<RaceCoverage> raceCoverageFromEnv(const char *Value) {
  if (!Value)
    return std::nullopt;
  std::string V(Value);
  if (V == "1")
    return RaceCoverage::Ends;
  if (V == "full")
    return RaceCoverage::Whole;
  return std::nullopt;
}

/// One race as the raw trace records it: the copy's site, the access's
/// stack, and what was touched.
struct RawRace {
  std::uint32_t CopySite = 0;
  std::uint32_t Stack = 0;
  bool Write = false;
  /// The copy's direction: device-to-host (its destination was touched) or
  /// host-to-device (its source was).
  bool DeviceToHost = false;
  std::uint64_t CopyBytes = 0;
  /// Where in the buffer the first access fell.
  std::uint64_t Offset = 0;
  std::uint64_t Count = 0;
  /// When the first access happened, and when the GPU finished its copy
  /// (0: no activity record), on the activity records' clock.
  std::uint64_t AccessNs = 0;
  std::uint64_t CopyEndNs = 0;
};

/// What the detector did, for the raw trace and the docs' overhead figures.
struct RaceDetectorFacts {
  /// Copies whose host side was protected while in flight.
  std::uint64_t Watched = 0;
  /// Copies of pinned memory left unwatched: the table was full, or the
  /// memory could not be protected.
  std::uint64_t Unwatched = 0;
  /// Faults on a shared page outside every in-flight buffer (run on).
  std::uint64_t SharedPageSteps = 0;
  /// Accesses the CUDA libraries themselves made (run on).
  std::uint64_t RuntimeAccesses = 0;
  /// Races beyond the record table's capacity.
  std::uint64_t RacesDropped = 0;
  /// The mprotect calls that protected or lifted a range, the bytes they
  /// covered and the time they took: the detector's cost (the sum of the
  /// four parts below).
  std::uint64_t ProtectCalls = 0;
  std::uint64_t ProtectBytes = 0;
  std::uint64_t ProtectNs = 0;
  /// Where that cost is paid: on the issuing thread before the copy call
  /// returns, on the thread whose wait lifts a protection, in the signal
  /// handlers.
  struct Cost {
    std::uint64_t Calls = 0, Bytes = 0, Ns = 0;
  } AtIssue, AtLift, InHandlers;
  /// sigaction queries made to see that the program kept SIGSEGV ours, and
  /// their time.
  std::uint64_t HandlerChecks = 0, HandlerCheckNs = 0;
  /// Time the program's threads spun on the detector's lock while another
  /// held it.
  std::uint64_t LockWaitNs = 0;
  /// Bytes of copies that ended unwatched: the middles RaceCoverage::Ends
  /// leaves alone.
  std::uint64_t BytesNeverWatched = 0;
  /// Copies launched graphs ran that were watched, and 2D/3D copies.
  std::uint64_t GraphCopies = 0, StridedCopies = 0;
  /// "ends" or "whole" (RaceCoverage).
  std::string Coverage;
  /// Set once race detection was turned off, and why.
  bool Stopped = false;
};

class RaceDetector : public CallObserver {
public:
  /// \p ClockOffsetNs: what to add to CLOCK_MONOTONIC to read the activity
  /// records' clock.
  explicit RaceDetector(std::int64_t ClockOffsetNs = 0,
                        RaceCoverage Coverage = RaceCoverage::Ends);
  RaceCoverage coverage() const { return Coverage; }

  // CallObserver.
  void pinned(std::uintptr_t Ptr, std::uint64_t Size, bool ReadOnly) override;
  void unpinned(std::uintptr_t Ptr) override;
  void copyIssued(std::uint32_t Site, const CatalogRow &Api,
                  const CallArgs &Args, StreamKey Stream,
                  std::uint64_t Sequence, std::uint64_t Correlation,
                  std::uint32_t Capture) override;
  void graphLaunched(std::uint32_t Capture, StreamKey Stream,
                     std::uint64_t Sequence) override;
  void completed(StreamKey Stream, std::uint64_t UpTo) override;
  void copyEnded(std::uint64_t Correlation, std::uint64_t EndNs) override;

  /// A host function is about to be enqueued on \p Stream; the work issued
  /// there up to \p UpTo is finished once it starts. Returns what the
  /// runtime must be given to run hostFunctionReached() first, on the same
  /// stream (a marker the tracer enqueues before the program's function).
  void *hostFunctionMarker(StreamKey Stream, std::uint64_t UpTo);
  /// The same for a host function stream capture \p Capture records: the
  /// marker becomes a node of the graph and runs at each launch, before the
  /// program's function, once the launch stream's earlier work and the
  /// graph's copies before it are finished. The graph's copies after it
  /// have not begun; its own accesses to them are none of a race, so every
  /// copy of the graph counts as finished from there (a later race on them
  /// goes unseen). It lives as long as the process.
  void *graphHostFunctionMarker(std::uint32_t Capture);
  /// The marker's host function: the work before it is finished.
  static void hostFunctionReached(void *Marker);

  /// The signal handlers' part: whether a SIGSEGV or SIGTRAP was the
  /// detector's own (then it is handled and the thread goes on).
  bool onSegv(siginfo_t *Info, void *Context);
  bool onTrap(siginfo_t *Info, void *Context);

  /// Whether \p Handler is the process's SIGSEGV handler still; if the
  /// program replaced it, race detection stops (said once on stderr). One
  /// sigaction system call, at every traced call's return.
  void checkHandler(void (*Handler)(int, siginfo_t *, void *));

  /// Lifts every protection and stops: at the end of the process, in the
  /// child of a fork(), or when the program took over SIGSEGV.
  void stop(const char *Why);
  /// In the child of a fork(): the lock may have been held by a thread the
  /// child does not have. Stops without a word.
  void forkedChild();

  /// The races recorded, one per (copy site, access stack, read or write),
  /// their stacks interned in \p Stacks.
  std::vector<RawRace> races(StackTable &Stacks);
  RaceDetectorFacts facts() const;

  /// Fixed capacities (the handlers allocate nothing).
  static constexpr unsigned MaxFlights = 4096;
  static constexpr unsigned MaxRaces = 512;
  static constexpr unsigned MaxFrames = 48;
  static constexpr unsigned MaxSteppers = 64;
  static constexpr unsigned MaxRuntimeRanges = 64;
  /// The head of a copy RaceCoverage::Ends watches.
  static constexpr std::uintptr_t SyncHeadBytes = 256 << 10;

private:
  /// An async copy in flight whose host side is protected.
  struct Flight {
    bool Used = false;
    /// Lifted after a race on it: it no longer protects its pages.
    bool Raced = false;
    /// Being lifted (lift()): its pages are protected again without it.
    bool Ending = false;
    bool DeviceToHost = false;
    std::uintptr_t Begin = 0, End = 0;
    /// The pinned or registered allocation it lies in (its pages between
    /// two flights' are the program's pinned memory too).
    std::uintptr_t Allocation = 0;
    /// Protected: [Begin, WatchedEnd) and [LastBegin, End); the first is
    /// all of it with RaceCoverage::Whole.
    std::uintptr_t WatchedEnd = 0;
    std::uintptr_t LastBegin = 0;
    /// A 2D or 3D copy's rows (Pitch 0: the bytes are contiguous): Depth
    /// slices SlicePitch apart of Height rows Pitch apart, Width bytes each.
    std::uint64_t Width = 0, Height = 1, Depth = 1, Pitch = 0, SlicePitch = 0;
    /// The bytes it copies.
    std::uint64_t bytes() const {
      return Pitch ? Width * Height * Depth : End - Begin;
    }
    /// Whether the copy reads or writes the byte at \p Address (one of its
    /// pages' bytes).
    bool holds(std::uintptr_t Address) const {
      if (Address < Begin || Address >= End)
        return false;
      if (!Pitch)
        return true;
      std::uint64_t Offset = Address - Begin;
      std::uint64_t InSlice = SlicePitch ? Offset % SlicePitch : Offset;
      if (SlicePitch && Offset / SlicePitch >= Depth)
        return false;
      return InSlice / Pitch < Height && InSlice % Pitch < Width;
    }
    /// What it protects: its head and its last page (empty when the head
    /// reaches it).
    std::array<std::pair<std::uintptr_t, std::uintptr_t>, 2> ranges() const {
      return {{{Begin, WatchedEnd}, {LastBegin, End}}};
    }
    /// Whether [Lo, Hi) meets what it protects.
    bool watches(std::uintptr_t Lo, std::uintptr_t Hi) const {
      for (const auto &[From, To] : ranges())
        if (From < Hi && To > Lo && From < To)
          return true;
      return false;
    }
    StreamKey Stream = 0;
    std::uint64_t Sequence = 0;
    std::uint32_t Site = 0;
    std::uint64_t Correlation = 0;
    /// The capture that recorded it, when a graph launch issued it.
    std::uint32_t Capture = 0;
    /// When the GPU finished it, if its activity record came first.
    std::uint64_t CopyEndNs = 0;
  };
  struct Race {
    std::uint32_t Site;
    bool Write, DeviceToHost;
    std::uint64_t CopyBytes, Offset, Correlation, AccessNs, CopyEndNs;
    std::uintptr_t Frames[MaxFrames];
    unsigned FrameCount;
  };
  /// A thread running one instruction on a page opened for it.
  struct Stepper {
    std::atomic<pid_t> Tid{0};
    std::uintptr_t Page = 0;
  };

  void lock();
  /// In a handler: false if this thread already holds the lock (a fault in
  /// the detector itself: not ours).
  bool lockInHandler();
  void unlock();
  /// Protects pages [Begin, End) as the watched flights on them require
  /// (and the pages opened for a step leave open). Locked. With \p Added
  /// or flights Ending, what each page had before is known (the flights
  /// then: \p Added not yet among them, the Ending ones still), and only
  /// the pages whose protection changes are given it: runs of them, and
  /// the pages between two of one run that already have it. Without
  /// either, every page is given it.
  bool reprotect(std::uintptr_t Begin, std::uintptr_t End,
                 RaceDetectorFacts::Cost &Paid, const Flight *Added = nullptr,
                 bool Lifting = false);
  std::uintptr_t pageDown(std::uintptr_t A) const {
    return A & ~(PageSize - 1);
  }
  std::uintptr_t pageUp(std::uintptr_t A) const {
    return pageDown(A + PageSize - 1);
  }
  /// Protects or lifts (as the flights on them now require) both watched
  /// ranges of \p F. Locked.
  bool reprotectFlight(const Flight &F, RaceDetectorFacts::Cost &Paid);
  /// Lifts the flights \p Done accepts and protects their pages again as
  /// the rest require, adjacent ranges in one pass. Locked.
  template <typename Pred> void lift(Pred Done);
  bool inRuntime(std::uintptr_t Pc) const;
  /// onSegv's part for a fault on a page the detector protects.
  bool handleWatched(std::uintptr_t Address, std::uintptr_t Page,
                     std::uintptr_t Pc, bool Write, pid_t Self, void *Context);
  /// onSegv's part for any other protection fault.
  bool retryOnce(std::uintptr_t Address, pid_t Self);
  void warnOnce(std::atomic<bool> &Said, const char *Message);
  /// A graph marker was reached: the copies its capture recorded before it
  /// and the work its launch stream had before the launch are finished.
  void graphPointReached(std::uint32_t Capture);

  std::int64_t ClockOffsetNs;
  RaceCoverage Coverage;
  std::uintptr_t PageSize;
  std::atomic<bool> Enabled{true};
  std::atomic<pid_t> LockOwner{0};
  std::atomic_flag Busy = ATOMIC_FLAG_INIT;

  Flight Flights[MaxFlights];
  unsigned FlightsHigh = 0;
  /// Whether pages are as the flights and steps say (every protection the
  /// detector gave succeeded and none was given behind reprotect's back);
  /// once not, reprotect gives every page its protection again.
  bool ProtectionsKnown = true;
  Race Races[MaxRaces];
  unsigned RaceCount = 0;
  Stepper Steppers[MaxSteppers];
  /// A fault on no watched page is retried once per thread: a protection
  /// lifted between the fault and the handler leaves nothing to catch.
  struct Retry {
    std::atomic<pid_t> Tid{0};
    std::uintptr_t Address = 0;
  } Retries[MaxSteppers];
  /// Code of the CUDA libraries: their own accesses are not the program's.
  std::pair<std::uintptr_t, std::uintptr_t> RuntimeRanges[MaxRuntimeRanges];
  unsigned RuntimeRangeCount = 0;

  /// Each capture's latest launch: its stream and call number (normal
  /// context).
  std::mutex LaunchLock;
  std::map<std::uint32_t, std::pair<StreamKey, std::uint64_t>> Launches;

  /// Pinned and registered memory: start -> end (normal context).
  std::mutex PinnedLock;
  std::map<std::uintptr_t, std::uintptr_t> Pinned;

  RaceDetectorFacts Facts;
  std::atomic<bool> SaidUnprotectable{false}, SaidFull{false},
      SaidStopped{false};
  /// Lifted ranges, reused by lift() (normal context, under the lock).
  struct LiftedRange {
    std::uintptr_t From, To, Allocation;
  };
  std::vector<LiftedRange> LiftedRanges;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_RACEDETECTOR_H
