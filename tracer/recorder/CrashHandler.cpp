//===- CrashHandler.cpp - A crash is evidence too -------------------------===//

#include "CrashHandler.h"

#include <csignal>
#include <cstring>
#include <dlfcn.h>

namespace cuda_async_trace {

namespace {

Recorder *Crashing;
const std::string *CrashPattern;

void onCrash(int Signal) {
  Stack Where = captureStack(0);
  std::vector<std::string> Names;
  for (std::uintptr_t Address : Where) {
    Dl_info Info;
    // The return address less one: the call, not what follows it.
    bool Found = dladdr(reinterpret_cast<void *>(Address - 1), &Info) != 0;
    Names.push_back(Found && Info.dli_sname ? Info.dli_sname : "");
  }
  Crashing->write(*CrashPattern, Signal, std::move(Where), std::move(Names));
  std::signal(Signal, SIG_DFL);
  std::raise(Signal);
}

} // namespace

void installCrashHandlers(Recorder *R, const std::string *Pattern) {
  Crashing = R;
  CrashPattern = Pattern;
  for (int Signal : {SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE}) {
    struct sigaction Action;
    std::memset(&Action, 0, sizeof(Action));
    Action.sa_handler = onCrash;
    Action.sa_flags = SA_RESETHAND;
    sigemptyset(&Action.sa_mask);
    sigaction(Signal, &Action, nullptr);
  }
}

} // namespace cuda_async_trace
