//===- RaceFaults.cpp - A fault on a page a copy protects -----------------===//
//
// The race detector's signal side (RaceDetector.h): a protection fault on a
// page of a copy in flight is the host touching that page. Inside the copy
// it is a race, recorded once per copy with the stack that made it; beside
// it, on a page the copy shares, the page opens for one instruction (the
// trap flag) and is protected again; on no watched page (a protection lifted
// meanwhile) the instruction runs again once, and a second fault there is
// the program's own. All of it runs in a signal handler: no allocation, no
// lock but the detector's own.
//
//===----------------------------------------------------------------------===//

#include "RaceDetector.h"
#include "ThreadClock.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unwind.h>

namespace cuda_async_trace {

namespace {

struct Unwinding {
  std::uintptr_t *Frames;
  unsigned Count;
  unsigned Max;
};

_Unwind_Reason_Code onFrame(struct _Unwind_Context *Context, void *Arg) {
  auto *U = static_cast<Unwinding *>(Arg);
  int BeforeInstruction = 0;
  std::uintptr_t IP = _Unwind_GetIPInfo(Context, &BeforeInstruction);
  if (IP == 0)
    return _URC_END_OF_STACK;
  // A signal frame's IP is the faulting instruction itself, not a return
  // address: one more, so that the symbolizer's "one byte before" lands in
  // it.
  U->Frames[U->Count++] = BeforeInstruction ? IP + 1 : IP;
  return U->Count >= U->Max ? _URC_END_OF_STACK : _URC_NO_REASON;
}

/// The program counter and whether the access was a write, from the signal
/// context (x86-64: the page fault's error code has bit 1 for a write).
bool faultDetails(void *Context, std::uintptr_t &Pc, bool &Write) {
#if defined(__x86_64__)
  auto *UC = static_cast<ucontext_t *>(Context);
  Pc = static_cast<std::uintptr_t>(UC->uc_mcontext.gregs[REG_RIP]);
  Write = (UC->uc_mcontext.gregs[REG_ERR] & 0x2) != 0;
  return true;
#else
  (void)Context;
  Pc = 0;
  Write = false;
  return false;
#endif
}

/// Sets or clears the trap flag: one instruction, then SIGTRAP.
void setTrapFlag(void *Context, bool On) {
#if defined(__x86_64__)
  auto *UC = static_cast<ucontext_t *>(Context);
  constexpr greg_t TrapFlag = 0x100;
  if (On)
    UC->uc_mcontext.gregs[REG_EFL] |= TrapFlag;
  else
    UC->uc_mcontext.gregs[REG_EFL] &= ~TrapFlag;
#else
  (void)Context;
  (void)On;
#endif
}

} // namespace

bool RaceDetector::onSegv(siginfo_t *Info, void *Context) {
  // Only a protection fault can be ours (an unmapped address is not).
  if (Info->si_code != SEGV_ACCERR)
    return false;
  std::uintptr_t Address = reinterpret_cast<std::uintptr_t>(Info->si_addr);
  std::uintptr_t Page = pageDown(Address);
  std::uintptr_t Pc;
  bool Write;
  if (!faultDetails(Context, Pc, Write))
    return false;
  pid_t Self = threadId();
  if (Enabled.load(std::memory_order_relaxed) &&
      handleWatched(Address, Page, Pc, Write, Self, Context))
    return true;
  return retryOnce(Address, Self);
}

bool RaceDetector::handleWatched(std::uintptr_t Address, std::uintptr_t Page,
                                 std::uintptr_t Pc, bool Write, pid_t Self,
                                 void *Context) {
  if (!lockInHandler())
    return false;
  Flight *Hit = nullptr;
  bool OnWatchedPage = false;
  for (unsigned I = 0; I < FlightsHigh; ++I) {
    Flight &F = Flights[I];
    if (!F.Used || F.Raced || !F.watches(Page, Page + PageSize))
      continue;
    OnWatchedPage = true;
    // Reading an upload's source is no race: the read faults only because
    // a download's destination shares the page (PROT_NONE for both).
    if (F.watches(Address, Address + 1) && F.holds(Address) &&
        (Write || F.DeviceToHost)) {
      Hit = &F;
      break;
    }
  }
  if (OnWatchedPage)
    // A fault of ours ends a pending retry of this thread. (Not any fault:
    // a real crash's second fault must find its retry and crash.)
    for (Retry &R : Retries)
      if (R.Tid.load(std::memory_order_relaxed) == Self)
        R.Tid.store(0, std::memory_order_relaxed);

  if (Hit && !inRuntime(Pc)) {
    // The race: recorded once per flight, then the buffer is the program's
    // again and the instruction runs on.
    if (RaceCount < MaxRaces) {
      Race &R = Races[RaceCount++];
      R.Site = Hit->Site;
      R.Write = Write;
      R.DeviceToHost = Hit->DeviceToHost;
      R.CopyBytes = Hit->bytes();
      R.Offset = Address - Hit->Begin;
      R.Correlation = Hit->Correlation;
      R.AccessNs = monotonicNs() + ClockOffsetNs;
      R.CopyEndNs = Hit->CopyEndNs;
      Unwinding U{R.Frames, 0, MaxFrames};
      _Unwind_Backtrace(onFrame, &U);
      R.FrameCount = U.Count;
    } else {
      ++Facts.RacesDropped;
    }
    Hit->Raced = true;
    reprotectFlight(*Hit, Facts.InHandlers);
    unlock();
    return true;
  }

  if (OnWatchedPage) {
    // A shared page (or the CUDA libraries' own access): open the page for
    // one instruction, then SIGTRAP protects it again.
    for (Stepper &S : Steppers) {
      pid_t Free = 0;
      if (S.Tid.compare_exchange_strong(Free, Self)) {
        S.Page = Page;
        if (Hit)
          ++Facts.RuntimeAccesses;
        else
          ++Facts.SharedPageSteps;
        mprotect(reinterpret_cast<void *>(Page), PageSize,
                 PROT_READ | PROT_WRITE);
        setTrapFlag(Context, true);
        unlock();
        return true;
      }
    }
    // Every step slot taken: leave the page open until the flights on it
    // end (a race there goes unseen; nothing false is reported). The page
    // is not as the flights say: reprotect gives every page its due again.
    mprotect(reinterpret_cast<void *>(Page), PageSize, PROT_READ | PROT_WRITE);
    ProtectionsKnown = false;
    unlock();
    return true;
  }
  unlock();
  return false;
}

bool RaceDetector::retryOnce(std::uintptr_t Address, pid_t Self) {
  // On no watched page: a protection lifted between the fault and this
  // handler (a wait on another thread, the end of detection) leaves the
  // instruction free to run again, once. A second fault at the same
  // address is the program's own.
  for (Retry &R : Retries)
    if (R.Tid.load(std::memory_order_relaxed) == Self) {
      bool Again = R.Address == Address;
      R.Tid.store(0, std::memory_order_relaxed);
      if (Again)
        return false;
    }
  for (Retry &R : Retries) {
    pid_t Free = 0;
    if (R.Tid.compare_exchange_strong(Free, Self)) {
      R.Address = Address;
      return true;
    }
  }
  return false;
}

bool RaceDetector::onTrap(siginfo_t *, void *Context) {
  pid_t Self = threadId();
  for (Stepper &S : Steppers) {
    if (S.Tid.load(std::memory_order_relaxed) != Self)
      continue;
    setTrapFlag(Context, false);
    if (!lockInHandler())
      return false;
    std::uintptr_t Page = S.Page;
    S.Tid.store(0, std::memory_order_relaxed);
    reprotect(Page, Page + PageSize, Facts.InHandlers);
    unlock();
    return true;
  }
  return false;
}

void RaceDetector::checkHandler(void (*Handler)(int, siginfo_t *, void *)) {
  if (!Enabled.load(std::memory_order_relaxed))
    return;
  // At every traced call: a program that takes SIGSEGV over while a copy is
  // in flight and then touches the buffer must not get our fault in its
  // handler (races.test, handler-after). A period between checks would
  // open that window; the system call's cost is counted instead.
  std::uint64_t Now = monotonicNs();
  struct sigaction Current;
  int Asked = sigaction(SIGSEGV, nullptr, &Current);
  std::uint64_t Ns = monotonicNs() - Now;
  lock();
  ++Facts.HandlerChecks;
  Facts.HandlerCheckNs += Ns;
  unlock();
  if (Asked == 0 &&
      (!(Current.sa_flags & SA_SIGINFO) || Current.sa_sigaction != Handler))
    stop("the program installed its own SIGSEGV handler: race detection is "
         "off from here");
}

} // namespace cuda_async_trace
