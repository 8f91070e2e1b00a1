//===- RawTraceWriter.cpp - The traced program's own record ---------------===//

#include "RawTraceWriter.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace cuda_async_trace {

namespace {

/// A minimal JSON emitter: the injection library runs inside the user's
/// program and links nothing it does not need.
class Json {
public:
  std::string Out;

  void string(const std::string &S) {
    Out += '"';
    for (unsigned char C : S) {
      switch (C) {
      case '"':
        Out += "\\\"";
        break;
      case '\\':
        Out += "\\\\";
        break;
      case '\n':
        Out += "\\n";
        break;
      case '\t':
        Out += "\\t";
        break;
      default:
        if (C < 0x20) {
          char Buf[8];
          std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
          Out += Buf;
        } else {
          Out += static_cast<char>(C);
        }
      }
    }
    Out += '"';
  }
  void number(unsigned long long N) { Out += std::to_string(N); }
  void number(long long N) { Out += std::to_string(N); }
  void key(const char *K) {
    comma();
    string(K);
    Out += ':';
    Fresh = true;
  }
  void open(char C) {
    comma();
    Out += C;
    Fresh = true;
  }
  void close(char C) {
    Out += C;
    Fresh = false;
  }
  /// Before a value in an array or after a key.
  void value() { comma(); }
  void comma() {
    if (!Fresh)
      Out += ',';
    Fresh = false;
  }
  void field(const char *K, unsigned long long N) {
    key(K);
    value();
    number(N);
  }
  void field(const char *K, const std::string &S) {
    key(K);
    value();
    string(S);
  }

private:
  bool Fresh = true;
};

void writeStack(Json &J, const Stack &S) {
  J.open('[');
  for (std::uintptr_t A : S) {
    J.value();
    J.number(static_cast<unsigned long long>(A));
  }
  J.close(']');
}

} // namespace

std::string formatRawTrace(const RawTrace &T) {
  Json J;
  J.open('{');
  J.field("format", std::string("cuda-async-trace-raw"));
  J.field("version", RawTraceVersion);
  J.key("process");
  J.open('{');
  J.field("pid", static_cast<unsigned long long>(T.Pid));
  J.field("tracer", T.Tracer);
  J.field("signal", static_cast<unsigned long long>(T.Signal));
  if (T.Signal) {
    J.key("crashStack");
    writeStack(J, T.CrashStack);
    J.key("crashSymbols");
    J.open('[');
    for (const std::string &Name : T.CrashSymbols) {
      J.value();
      J.string(Name);
    }
    J.close(']');
  }
  J.field("streamsCreated", T.Facts.StreamsCreated);
  J.field("activityRecords", T.Facts.ActivityRecords);
  J.field("unmatchedActivity", T.Facts.UnmatchedActivity);
  J.field("droppedActivity", T.Facts.DroppedActivity);
  if (T.DetectedRaces) {
    J.key("raceDetection");
    J.open('{');
    J.field("watchedCopies", T.RaceFacts.Watched);
    J.field("unwatchedCopies", T.RaceFacts.Unwatched);
    J.field("sharedPageSteps", T.RaceFacts.SharedPageSteps);
    J.field("runtimeAccesses", T.RaceFacts.RuntimeAccesses);
    J.field("racesDropped", T.RaceFacts.RacesDropped);
    J.field("protectCalls", T.RaceFacts.ProtectCalls);
    J.field("protectBytes", T.RaceFacts.ProtectBytes);
    J.field("protectNs", T.RaceFacts.ProtectNs);
    // Where the cost is paid (docs/runtime-trace.md, "What it costs").
    J.key("costs");
    J.open('{');
    for (const auto &[Name, Cost] :
         {std::pair{"atIssue", &T.RaceFacts.AtIssue},
          std::pair{"atLift", &T.RaceFacts.AtLift},
          std::pair{"inHandlers", &T.RaceFacts.InHandlers}}) {
      J.key(Name);
      J.open('{');
      J.field("calls", Cost->Calls);
      J.field("bytes", Cost->Bytes);
      J.field("ns", Cost->Ns);
      J.close('}');
    }
    J.field("handlerChecks", T.RaceFacts.HandlerChecks);
    J.field("handlerCheckNs", T.RaceFacts.HandlerCheckNs);
    J.field("lockWaitNs", T.RaceFacts.LockWaitNs);
    J.field("bytesNeverWatched", T.RaceFacts.BytesNeverWatched);
    J.close('}');
    J.field("graphCopies", T.RaceFacts.GraphCopies);
    J.field("stridedCopies", T.RaceFacts.StridedCopies);
    J.field("coverage", T.RaceFacts.Coverage);
    J.key("stopped");
    J.value();
    J.Out += T.RaceFacts.Stopped ? "true" : "false";
    J.close('}');
  }
  J.close('}');

  J.key("modules");
  J.open('[');
  for (const LoadedModule &M : T.Modules) {
    J.open('{');
    J.field("path", M.Path);
    J.field("base", static_cast<unsigned long long>(M.Base));
    J.field("buildId", M.BuildId);
    J.key("ranges");
    J.open('[');
    for (const auto &[Lo, Hi] : M.Ranges) {
      J.open('[');
      J.value();
      J.number(static_cast<unsigned long long>(Lo));
      J.value();
      J.number(static_cast<unsigned long long>(Hi));
      J.close(']');
    }
    J.close(']');
    J.close('}');
  }
  J.close(']');

  J.key("stacks");
  J.open('[');
  for (const Stack &S : T.Stacks)
    writeStack(J, S);
  J.close(']');

  J.key("sites");
  J.open('[');
  for (const Site &S : T.Sites) {
    J.open('{');
    J.field("api", std::string(S.Api->Name));
    J.field("function", S.Function);
    J.field("kind", std::string(callKindName(S.Api->Kind)));
    J.key("async");
    J.value();
    J.Out += S.Api->Async ? "true" : "false";
    J.field("stack", S.Stack);
#define SITE_COUNTER(Member, Json) J.field(Json, S.Member);
#include "SiteCounters.def"
    J.key("firstError");
    J.value();
    J.number(static_cast<long long>(S.FirstError));
    J.key("memoryKinds");
    J.open('[');
    for (const std::string &K : S.MemoryKinds) {
      J.value();
      J.string(K);
    }
    J.close(']');
    J.field("distinctStreams", S.Streams.size());
    J.close('}');
  }
  J.close(']');

  if (T.DetectedRaces) {
    J.key("races");
    J.open('[');
    for (const RawRace &R : T.Races) {
      J.open('{');
      J.field("copySite", R.CopySite);
      J.field("stack", R.Stack);
      J.field("access", std::string(R.Write ? "write" : "read"));
      J.field("direction", std::string(R.DeviceToHost ? "device-to-host"
                                                      : "host-to-device"));
      J.field("copyBytes", R.CopyBytes);
      J.field("offset", R.Offset);
      J.field("count", R.Count);
      J.field("accessNs", R.AccessNs);
      J.field("copyEndNs", R.CopyEndNs);
      J.close('}');
    }
    J.close(']');
  }
  J.close('}');
  J.Out += '\n';
  return J.Out;
}

bool writeFileAtomically(const std::string &Path, const std::string &Text) {
  std::string Temporary = Path + ".tmp." + std::to_string(getpid());
  int Fd =
      ::open(Temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return false;
  const char *P = Text.data();
  std::size_t Left = Text.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Saved = errno;
      ::close(Fd);
      ::unlink(Temporary.c_str());
      errno = Saved;
      return false;
    }
    P += N;
    Left -= static_cast<std::size_t>(N);
  }
  if (::close(Fd) != 0 || ::rename(Temporary.c_str(), Path.c_str()) != 0) {
    int Saved = errno;
    ::unlink(Temporary.c_str());
    errno = Saved;
    return false;
  }
  return true;
}

std::string expandPid(const std::string &Pattern, long Pid) {
  std::string Out;
  for (std::size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] == '%' && I + 1 < Pattern.size() && Pattern[I + 1] == 'p') {
      Out += std::to_string(Pid);
      ++I;
    } else {
      Out += Pattern[I];
    }
  }
  return Out;
}

} // namespace cuda_async_trace
