//===- Recorder.cpp - One traced process's record -------------------------===//

#include "Recorder.h"

#include <ctime>
#include <unistd.h>

namespace cuda_async_trace {

std::uint32_t Recorder::enter(const CatalogRow *Api, const char *Function,
                              unsigned Skip) {
  // This function's own frame is left out too.
  std::uint32_t StackId = Stacks.intern(captureStack(Skip + 1));
  return Sites.siteFor(Api, Function, StackId);
}

void *Recorder::hostFunctionMarker(StreamKey Stream, bool DriverSaysCapturing) {
  if (!Races)
    return nullptr;
  // A capture this table saw begin: the marker becomes the graph's node.
  if (std::optional<std::uint32_t> Capture = Sites.captureOf(Stream))
    return Races->graphHostFunctionMarker(*Capture);
  std::uint64_t UpTo = Sites.sequence();
  if (DriverSaysCapturing || Sites.capturing(Stream)) {
    Races->completed(Stream, UpTo);
    return nullptr;
  }
  return Races->hostFunctionMarker(Stream, UpTo);
}

namespace {
/// Set on the thread that writes the trace, while it does.
thread_local bool Writing = false;
} // namespace

void Recorder::waitForWrite(unsigned TimeoutMs) {
  if (Writing || !Written.load())
    return;
  for (unsigned Ms = 0; Ms < TimeoutMs && !WriteEnded.load(); ++Ms) {
    timespec OneMs{0, 1000000};
    nanosleep(&OneMs, nullptr);
  }
}

bool Recorder::write(const std::string &Pattern, int Signal, Stack Crash,
                     std::vector<std::string> CrashSymbols) {
  if (Written.exchange(true))
    return true;
  Writing = true;
  struct Ended {
    Recorder &R;
    ~Ended() {
      Writing = false;
      R.WriteEnded.store(true);
    }
  } MarkEnded{*this};
  Sites.finish();
  RawTrace T;
  T.Sites = Sites.sites();
  if (Races) {
    // Every protection lifted first: the program is ending.
    Races->stop(nullptr);
    T.DetectedRaces = true;
    T.Races = Races->races(Stacks);
    T.RaceFacts = Races->facts();
  }
  // After the races, whose access stacks are interned into them.
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
