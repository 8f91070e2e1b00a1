//===- Recorder.cpp - One traced process's record -------------------------===//

#include "Recorder.h"

#include <unistd.h>

namespace cuda_async_trace {

std::uint32_t Recorder::enter(const CatalogRow *Api, const char *Function,
                              unsigned Skip) {
  // This function's own frame is left out too.
  std::uint32_t StackId = Stacks.intern(captureStack(Skip + 1));
  return Sites.siteFor(Api, Function, StackId);
}

bool Recorder::write(const std::string &Pattern, int Signal, Stack Crash,
                     std::vector<std::string> CrashSymbols) {
  if (Written.exchange(true))
    return true;
  Sites.finish();
  RawTrace T;
  T.Sites = Sites.sites();
  T.Stacks = Stacks.stacks();
  T.Modules = loadedModules();
  T.Facts = Sites.facts();
  T.Pid = static_cast<long>(getpid());
  T.Tracer = Tracer;
  T.Signal = Signal;
  T.CrashStack = std::move(Crash);
  T.CrashSymbols = std::move(CrashSymbols);
  return writeFileAtomically(expandPid(Pattern, T.Pid), formatRawTrace(T));
}

} // namespace cuda_async_trace
