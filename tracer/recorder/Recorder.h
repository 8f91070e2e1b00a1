//===- Recorder.h - One traced process's record -----------------*- C++ -*-===//
//
// What the injection library keeps while the program runs, behind two calls
// a tracer makes per CUDA call (enter, exit) and one at the end (write).
// CPU tests drive it the same way through a stand-in runtime.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_RECORDER_H
#define CUDA_ASYNC_TRACE_RECORDER_RECORDER_H

#include "CallStacks.h"
#include "RaceDetector.h"
#include "RawTraceWriter.h"
#include "SiteTable.h"

#include <atomic>
#include <memory>
#include <string>

namespace cuda_async_trace {

class Recorder {
public:
  /// \p Tracer names what reports the calls ("CUPTI 130001"). With
  /// \p DetectRaces, a race detector watches the copies (as much of each
  /// as \p Coverage says; its clock
  /// \p ClockOffsetNs ahead of CLOCK_MONOTONIC, as the activity records').
  explicit Recorder(std::string Tracer, bool DetectRaces = false,
                    std::int64_t ClockOffsetNs = 0,
                    RaceCoverage Coverage = RaceCoverage::Ends)
      : Tracer(std::move(Tracer)),
        Races(DetectRaces
                  ? std::make_unique<RaceDetector>(ClockOffsetNs, Coverage)
                  : nullptr),
        Sites(Races.get()) {}

  /// A call of \p Api starts: its site, from the calling stack (the
  /// caller's own \p Skip frames left out).
  std::uint32_t enter(const CatalogRow *Api, const char *Function,
                      unsigned Skip);
  SiteTable &sites() { return Sites; }
  /// The race detector, if races are detected.
  RaceDetector *races() { return Races.get(); }

  /// The race detector's marker for a host function the program is about
  /// to put on \p Stream (RaceDetector::hostFunctionReached runs it), or
  /// nullptr: none to enqueue. A host function captured into a graph runs
  /// at each launch of the graph, not now: in a capture this table saw
  /// begin, the marker becomes a node before it (the copies captured before
  /// it and the launch stream's earlier work are finished when it runs); in
  /// one only the driver knows of (\p DriverSaysCapturing), no marker goes
  /// there, and the stream's work issued so far counts as finished now
  /// (nothing false is reported; a race after it goes unseen).
  void *hostFunctionMarker(StreamKey Stream, bool DriverSaysCapturing);

  /// Writes the raw trace to \p Pattern ("%p": the process id), once: a
  /// second call (a crash during exit) does nothing. \p Signal and \p Crash:
  /// the signal the program dies of, and where. Returns false with errno set
  /// if the file cannot be written.
  bool write(const std::string &Pattern, int Signal = 0, Stack Crash = {},
             std::vector<std::string> CrashSymbols = {});

  /// Waits, at most \p TimeoutMs, for a write another thread is making to
  /// end: a thread that crashes while the program exits on another thread
  /// (its exit handler writing the trace) must not kill the process in the
  /// middle of the write. Returns at once if no write is under way or this
  /// thread is the one writing. Safe in a signal handler.
  void waitForWrite(unsigned TimeoutMs);

private:
  std::string Tracer;
  /// Before the site table, which reports to it.
  std::unique_ptr<RaceDetector> Races;
  SiteTable Sites;
  StackTable Stacks;
  std::atomic<bool> Written{false};
  /// The write has ended (written or failed).
  std::atomic<bool> WriteEnded{false};
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_RECORDER_H
