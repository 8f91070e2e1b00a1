//===- SignalHandlers.cpp - The tracer's one signal dispatcher ------------===//

#include "SignalHandlers.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>

namespace cuda_async_trace {

namespace {

Recorder *Crashing;
const std::string *CrashPattern;
/// What each signal did before the tracer took it: the program's own
/// handler, or the default.
struct sigaction Previous[NSIG];

void crashed(int Signal) {
  Stack Where = captureStack(0);
  std::vector<std::string> Names;
  for (std::uintptr_t Address : Where) {
    Dl_info Info;
    // The return address less one: the call, not what follows it.
    bool Found = dladdr(reinterpret_cast<void *>(Address - 1), &Info) != 0;
    Names.push_back(Found && Info.dli_sname ? Info.dli_sname : "");
  }
  if (RaceDetector *Races = Crashing->races())
    Races->stop(nullptr);
  Crashing->write(*CrashPattern, Signal, std::move(Where), std::move(Names));
  // Another thread may be writing the trace (the program exiting there):
  // dying now would leave none.
  Crashing->waitForWrite(10000);
  signal(Signal, SIG_DFL);
  raise(Signal);
}

} // namespace

void signalDispatcher(int Signal, siginfo_t *Info, void *Context) {
  int SavedErrno = errno;
  RaceDetector *Races = Crashing->races();
  if (Races && ((Signal == SIGSEGV && Races->onSegv(Info, Context)) ||
                (Signal == SIGTRAP && Races->onTrap(Info, Context)))) {
    errno = SavedErrno;
    return;
  }
  const struct sigaction &Program = Previous[Signal];
  if (Program.sa_flags & SA_SIGINFO) {
    if (Program.sa_sigaction) {
      Program.sa_sigaction(Signal, Info, Context);
      errno = SavedErrno;
      return;
    }
  } else if (Program.sa_handler != SIG_DFL && Program.sa_handler != SIG_IGN) {
    Program.sa_handler(Signal);
    errno = SavedErrno;
    return;
  }
  crashed(Signal);
}

void installSignalHandlers(Recorder *R, const std::string *Pattern) {
  Crashing = R;
  CrashPattern = Pattern;
  std::vector<int> Signals{SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE};
  if (R->races())
    Signals.push_back(SIGTRAP);
  for (int Signal : Signals) {
    struct sigaction Action;
    std::memset(&Action, 0, sizeof(Action));
    Action.sa_sigaction = signalDispatcher;
    // On the program's alternate stack if it set one (a stack overflow
    // handler of its own still gets to run).
    Action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&Action.sa_mask);
    struct sigaction Old;
    sigaction(Signal, &Action, &Old);
    // Installed once: a second call must not chain the dispatcher to itself.
    if (!((Old.sa_flags & SA_SIGINFO) && Old.sa_sigaction == signalDispatcher))
      Previous[Signal] = Old;
  }
}

} // namespace cuda_async_trace
