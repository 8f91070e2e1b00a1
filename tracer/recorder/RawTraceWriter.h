//===- RawTraceWriter.h - The traced program's own record -------*- C++ -*-===//
//
// What the injection library writes when the traced program ends: the sites,
// the distinct stacks as raw addresses, the loaded modules that place them,
// and process facts. Format "cuda-async-trace-raw", version 1, documented in
// docs/runtime-trace.md. cuda-async-trace symbolizes it into the trace.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_RAWTRACEWRITER_H
#define CUDA_ASYNC_TRACE_RECORDER_RAWTRACEWRITER_H

#include "CallStacks.h"
#include "RaceDetector.h"
#include "SiteTable.h"

#include <string>
#include <vector>

namespace cuda_async_trace {

constexpr int RawTraceVersion = 1;

struct RawTrace {
  std::vector<Site> Sites;
  std::vector<Stack> Stacks;
  std::vector<LoadedModule> Modules;
  ProcessFacts Facts;
  long Pid = 0;
  /// What traced the calls: "CUPTI 130000", or a test's name.
  std::string Tracer;
  /// The signal the program died of, 0 if it ended normally; then
  /// CrashStack is where.
  int Signal = 0;
  Stack CrashStack;
  /// The exported symbol nearest below each crash frame (dladdr), "" where
  /// none: names the C library's free() that no local file symbolizes.
  std::vector<std::string> CrashSymbols;
  /// Whether the race detector ran (cuda-async-trace --races), and what it
  /// found.
  bool DetectedRaces = false;
  std::vector<RawRace> Races;
  RaceDetectorFacts RaceFacts;
};

/// The raw trace as JSON text.
std::string formatRawTrace(const RawTrace &T);

/// Writes \p Text to \p Path through a temporary file and a rename, so that
/// no reader sees half a trace. Returns false (and errno is set) on failure.
bool writeFileAtomically(const std::string &Path, const std::string &Text);

/// \p Pattern with each "%p" replaced by \p Pid.
std::string expandPid(const std::string &Pattern, long Pid);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_RAWTRACEWRITER_H
