//===- Trace.h - What a traced run did, per source line ---------*- C++ -*-===//
//
// The trace cuda-async-trace writes and cuda-async-lint --runtime-trace
// reads: format "cuda-async-trace", version 1 (docs/runtime-trace.md). Each
// site is one catalogued call at one source location, with what the run's
// calls there cost; each runtime finding is a check id the run itself shows
// at a line, with that cost.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_MODEL_TRACE_H
#define CUDA_ASYNC_TRACE_MODEL_TRACE_H

#include "SiteCounters.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <string>
#include <vector>

namespace cuda_async_trace {

constexpr int TraceVersion = 1;

struct SourceLocation {
  std::string File; ///< As the program's DWARF names it (absolute, usually).
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Function;

  bool known() const { return !File.empty() && Line != 0; }
};

/// One catalogued call at one source line, and what the run's calls there
/// did (SiteCounters.def).
struct TraceSite : SiteCounters {
  std::string Api;      ///< The catalog's name: "cudaMemcpyAsync".
  std::string Function; ///< What CUPTI called it: "cudaMemcpyAsync_v3020".
  std::string Kind;     ///< "copy", "stream-sync", ... (TracedApi.h).
  bool Async = false;
  /// Where the program called it: the innermost frame with a line in the
  /// program's own code. Unknown when the program has no line table there.
  SourceLocation Location;
};

/// The host touching the host side of an async copy still in flight, as the
/// race detector caught it (cuda-async-trace --races).
struct TraceRace {
  /// Where the host touched it, and where the copy was issued.
  SourceLocation Access;
  SourceLocation Copy;
  std::string CopyApi;
  bool Write = false;
  /// A device-to-host destination (else a host-to-device source).
  bool DeviceToHost = false;
  std::uint64_t CopyBytes = 0;
  /// Where in the buffer the first access fell.
  std::uint64_t Offset = 0;
  std::uint64_t Count = 0;
  /// The GPU's end of the copy less the access's time, where the activity
  /// record was seen: negative if the copy had already ended, unknown to
  /// the host.
  bool TimeLeftKnown = false;
  std::int64_t TimeLeftNs = 0;
};

/// A check the run itself shows at a line.
struct RuntimeFinding {
  std::string CheckId;
  SourceLocation Location;
  std::string Api;
  std::string Message;
  /// Another place involved (the copy a race's access raced with).
  SourceLocation Related;
  std::string RelatedMessage;
  /// The measured cost, for the join's notes and properties.
  std::uint64_t Calls = 0;
  std::uint64_t Bytes = 0;
  std::uint64_t HostNs = 0;
};

/// One traced process (a program that forks traces each child too).
struct TracedProcess {
  long Pid = 0;
  std::string Executable;
  /// The signal it died of, 0 if it exited; then Crash is where.
  int Signal = 0;
  SourceLocation Crash;
  /// The release function the crash happened in (free, operator delete[]),
  /// if any: heap corruption from releasing memory the wrong way.
  std::string CrashedIn;
  std::uint64_t StreamsCreated = 0;
  std::uint64_t ActivityRecords = 0;
  std::uint64_t UnmatchedActivity = 0;
  std::uint64_t DroppedActivity = 0;
  /// What the race detector did (cuda-async-trace --races), if it ran.
  bool DetectedRaces = false;
  std::uint64_t WatchedCopies = 0;
  std::uint64_t UnwatchedCopies = 0;
  /// Its cost: the mprotect calls, the bytes they covered, their time.
  std::uint64_t ProtectCalls = 0;
  std::uint64_t ProtectBytes = 0;
  std::uint64_t ProtectNs = 0;
  /// What of each copy it watched ("ends", "whole"; empty in traces of
  /// before it had a choice) and the bytes of copies it left unwatched.
  std::string Coverage;
  std::uint64_t BytesNeverWatched = 0;
  /// Of the copies watched: those launched graphs ran, and 2D/3D copies.
  std::uint64_t GraphCopies = 0, StridedCopies = 0;
};

/// The race detector's counters beyond the copies watched, by the name the
/// trace's "raceDetection" gives each: the one list the raw trace's reader,
/// and the trace's writer and reader, go through. Traces of before a
/// counter was recorded lack it (read as 0).
struct RaceCounter {
  const char *Name;
  std::uint64_t TracedProcess::*Field;
};
inline constexpr RaceCounter RaceCounters[] = {
    {"protectCalls", &TracedProcess::ProtectCalls},
    {"protectBytes", &TracedProcess::ProtectBytes},
    {"protectNs", &TracedProcess::ProtectNs},
    {"bytesNeverWatched", &TracedProcess::BytesNeverWatched},
    {"graphCopies", &TracedProcess::GraphCopies},
    {"stridedCopies", &TracedProcess::StridedCopies}};

struct Trace {
  std::string Tracer; ///< "CUPTI 130001".
  std::vector<TracedProcess> Processes;
  /// Sorted by location, then API.
  std::vector<TraceSite> Sites;
  std::vector<RuntimeFinding> Findings;
  /// Races, sorted by the access's location.
  std::vector<TraceRace> Races;
  /// Calls whose call site had no line information.
  std::uint64_t UnlocatedCalls = 0;
};

llvm::json::Value toJson(const Trace &T);
/// Reads a trace; an error names what is wrong (not a trace, a newer
/// version, a malformed field).
llvm::Expected<Trace> traceFromJson(const llvm::json::Value &V);
llvm::Expected<Trace> readTrace(llvm::StringRef Path);
/// One site's fields (a raw trace's sites have the same), without its
/// location; \p Where names it in an error.
llvm::Expected<TraceSite> siteFromJson(const llvm::json::Value &V,
                                       llvm::StringRef Where);

/// "1.9 s", "240 ms", "15 us".
std::string formatDuration(std::uint64_t Ns);
/// "once", "4 times".
std::string formatTimes(std::uint64_t N);
/// "16.0 MiB", "512 B".
std::string formatBytes(std::uint64_t Bytes);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_MODEL_TRACE_H
