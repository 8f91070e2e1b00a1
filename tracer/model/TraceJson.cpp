//===- TraceJson.cpp - The trace's JSON form ------------------------------===//

#include "Trace.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_async_trace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static Value toJson(const SourceLocation &L) {
  return Object{{"file", L.File},
                {"line", L.Line},
                {"column", L.Column},
                {"function", L.Function}};
}

static Value toJson(const TraceSite &S) {
  Array Kinds;
  for (const std::string &K : S.MemoryKinds)
    Kinds.push_back(K);
  Object O{{"api", S.Api},
           {"function", S.Function},
           {"kind", S.Kind},
           {"async", S.Async},
           {"location", toJson(S.Location)},
           {"firstError", S.FirstError},
           {"memoryKinds", std::move(Kinds)}};
#define SITE_COUNTER(Member, Json) O[Json] = S.Member;
#include "SiteCounters.def"
  return O;
}

Value toJson(const Trace &T) {
  Array Processes, Sites, Findings;
  for (const TracedProcess &P : T.Processes) {
    Object O{{"pid", static_cast<int64_t>(P.Pid)},
             {"executable", P.Executable},
             {"signal", P.Signal},
             {"streamsCreated", P.StreamsCreated},
             {"activityRecords", P.ActivityRecords},
             {"unmatchedActivity", P.UnmatchedActivity},
             {"droppedActivity", P.DroppedActivity}};
    if (P.Signal) {
      O["crash"] = toJson(P.Crash);
      O["crashedIn"] = P.CrashedIn;
    }
    if (P.DetectedRaces) {
      Object RD{{"watchedCopies", P.WatchedCopies},
                {"unwatchedCopies", P.UnwatchedCopies}};
      for (const RaceCounter &C : RaceCounters)
        RD[C.Name] = P.*C.Field;
      if (!P.Coverage.empty())
        RD["coverage"] = P.Coverage;
      O["raceDetection"] = std::move(RD);
    }
    Processes.push_back(std::move(O));
  }
  for (const TraceSite &S : T.Sites)
    Sites.push_back(toJson(S));
  for (const RuntimeFinding &F : T.Findings) {
    Object O{{"checkId", F.CheckId}, {"location", toJson(F.Location)},
             {"api", F.Api},         {"message", F.Message},
             {"calls", F.Calls},     {"bytes", F.Bytes},
             {"hostNs", F.HostNs}};
    if (F.Related.known()) {
      O["related"] = toJson(F.Related);
      O["relatedMessage"] = F.RelatedMessage;
    }
    Findings.push_back(std::move(O));
  }
  Array Races;
  for (const TraceRace &R : T.Races) {
    Object O{{"access", toJson(R.Access)},
             {"copy", toJson(R.Copy)},
             {"copyApi", R.CopyApi},
             {"write", R.Write},
             {"deviceToHost", R.DeviceToHost},
             {"copyBytes", R.CopyBytes},
             {"offset", R.Offset},
             {"count", R.Count}};
    if (R.TimeLeftKnown)
      O["timeLeftNs"] = R.TimeLeftNs;
    Races.push_back(std::move(O));
  }
  return Object{
      {"format", "cuda-async-trace"}, {"version", TraceVersion},
      {"tracer", T.Tracer},           {"processes", std::move(Processes)},
      {"sites", std::move(Sites)},    {"findings", std::move(Findings)},
      {"races", std::move(Races)},    {"unlocatedCalls", T.UnlocatedCalls}};
}

namespace {

/// Reads fields of one object, remembering the first problem by its path.
class Reader {
public:
  explicit Reader(std::string &Error) : Error(Error) {}

  const Object *object(const Value &V, llvm::StringRef Where) {
    const Object *O = V.getAsObject();
    if (!O)
      fail(Where, "is not an object");
    return O;
  }
  const Array *array(const Object &O, llvm::StringRef Key,
                     llvm::StringRef Where) {
    const Array *A = O.getArray(Key);
    if (!A)
      fail(Where, ("has no array '" + Key + "'").str());
    return A;
  }
  /// Calls \p Read(Object, Where) for each element of \p Top's array
  /// \p Key, until one is not an object (the error says which). A missing
  /// array is an error unless \p Optional.
  template <typename Fn>
  void eachObject(const Object &Top, llvm::StringRef Key, bool Optional,
                  Fn Read) {
    const Array *A =
        Optional ? Top.getArray(Key) : array(Top, Key, "the trace");
    if (!A)
      return;
    for (size_t I = 0; I < A->size(); ++I) {
      std::string At = (Key + "[" + llvm::Twine(I) + "]").str();
      const Object *O = object((*A)[I], At);
      if (!O)
        return;
      Read(*O, At);
    }
  }
  std::string string(const Object &O, llvm::StringRef Key,
                     llvm::StringRef Where) {
    if (const Value *V = O.get(Key)) {
      if (auto S = V->getAsString())
        return S->str();
      fail(Where, ("'" + Key + "' is not a string").str());
    }
    return "";
  }
  std::uint64_t number(const Object &O, llvm::StringRef Key,
                       llvm::StringRef Where) {
    if (const Value *V = O.get(Key)) {
      if (auto N = V->getAsUINT64())
        return *N;
      fail(Where, ("'" + Key + "' is not a non-negative integer").str());
    }
    return 0;
  }
  std::int64_t integer(const Object &O, llvm::StringRef Key,
                       llvm::StringRef Where) {
    if (const Value *V = O.get(Key)) {
      if (auto N = V->getAsInteger())
        return *N;
      fail(Where, ("'" + Key + "' is not an integer").str());
    }
    return 0;
  }
  bool boolean(const Object &O, llvm::StringRef Key, llvm::StringRef Where) {
    if (const Value *V = O.get(Key)) {
      if (auto B = V->getAsBoolean())
        return *B;
      fail(Where, ("'" + Key + "' is not a boolean").str());
    }
    return false;
  }
  SourceLocation location(const Object &O, llvm::StringRef Key,
                          llvm::StringRef Where) {
    SourceLocation L;
    const Value *V = O.get(Key);
    if (!V)
      return L;
    const Object *LO = object(*V, (Where + "." + Key).str());
    if (!LO)
      return L;
    std::string At = (Where + "." + Key).str();
    L.File = string(*LO, "file", At);
    L.Line = static_cast<unsigned>(number(*LO, "line", At));
    L.Column = static_cast<unsigned>(number(*LO, "column", At));
    L.Function = string(*LO, "function", At);
    return L;
  }
  void fail(llvm::StringRef Where, const std::string &What) {
    if (Error.empty())
      Error = (Where + " " + What).str();
  }

private:
  std::string &Error;
};

} // namespace

static TraceSite readSite(Reader &R, const Object &Obj, const std::string &At) {
  const Object *O = &Obj;
  TraceSite S;
  S.Api = R.string(*O, "api", At);
  S.Function = R.string(*O, "function", At);
  S.Kind = R.string(*O, "kind", At);
  S.Async = R.boolean(*O, "async", At);
  S.Location = R.location(*O, "location", At);
#define SITE_COUNTER(Member, Json) S.Member = R.number(*O, Json, At);
#include "SiteCounters.def"
  S.FirstError = static_cast<int>(R.integer(*O, "firstError", At));
  if (const Array *Ks = O->getArray("memoryKinds"))
    for (const Value &K : *Ks)
      if (auto Str = K.getAsString())
        S.MemoryKinds.insert(Str->str());
  return S;
}

llvm::Expected<Trace> traceFromJson(const Value &V) {
  std::string Error;
  Reader R(Error);
  const Object *Top = R.object(V, "the trace");
  if (!Top)
    return llvm::createStringError(Error);
  std::string Format = R.string(*Top, "format", "the trace");
  if (Format != "cuda-async-trace")
    return llvm::createStringError(
        Format == "cuda-async-trace-raw"
            ? "this is a raw trace, as the traced program wrote it; finish it "
              "first: cuda-async-trace --finish RAW -o TRACE"
            : "not a cuda-async-trace trace (its 'format' is '" + Format +
                  "')");
  std::int64_t Version = R.integer(*Top, "version", "the trace");
  if (Version != TraceVersion)
    return llvm::createStringError(
        "trace version " + std::to_string(Version) +
        " is not supported (this build reads version " +
        std::to_string(TraceVersion) + ")");
  Trace T;
  T.Tracer = R.string(*Top, "tracer", "the trace");
  T.UnlocatedCalls = R.number(*Top, "unlocatedCalls", "the trace");
  R.eachObject(
      *Top, "processes", false, [&](const Object &O, const std::string &At) {
        TracedProcess P;
        P.Pid = static_cast<long>(R.integer(O, "pid", At));
        P.Executable = R.string(O, "executable", At);
        P.Signal = static_cast<int>(R.integer(O, "signal", At));
        P.Crash = R.location(O, "crash", At);
        P.CrashedIn = R.string(O, "crashedIn", At);
        P.StreamsCreated = R.number(O, "streamsCreated", At);
        P.ActivityRecords = R.number(O, "activityRecords", At);
        P.UnmatchedActivity = R.number(O, "unmatchedActivity", At);
        P.DroppedActivity = R.number(O, "droppedActivity", At);
        if (const Value *RD = O.get("raceDetection"))
          if (const Object *RO = R.object(*RD, At + ".raceDetection")) {
            P.DetectedRaces = true;
            P.WatchedCopies = R.number(*RO, "watchedCopies", At);
            P.UnwatchedCopies = R.number(*RO, "unwatchedCopies", At);
            // Optional: traces of before a counter was recorded lack it.
            for (const RaceCounter &C : RaceCounters)
              if (RO->get(C.Name))
                P.*C.Field = R.number(*RO, C.Name, At);
            if (std::optional<llvm::StringRef> C = RO->getString("coverage"))
              P.Coverage = C->str();
          }
        T.Processes.push_back(std::move(P));
      });
  R.eachObject(*Top, "sites", false,
               [&](const Object &O, const std::string &At) {
                 T.Sites.push_back(readSite(R, O, At));
               });
  R.eachObject(*Top, "findings", false,
               [&](const Object &O, const std::string &At) {
                 RuntimeFinding F;
                 F.CheckId = R.string(O, "checkId", At);
                 F.Location = R.location(O, "location", At);
                 F.Api = R.string(O, "api", At);
                 F.Message = R.string(O, "message", At);
                 F.Calls = R.number(O, "calls", At);
                 F.Bytes = R.number(O, "bytes", At);
                 F.HostNs = R.number(O, "hostNs", At);
                 F.Related = R.location(O, "related", At);
                 F.RelatedMessage = R.string(O, "relatedMessage", At);
                 T.Findings.push_back(std::move(F));
               });
  // Optional: traces written before race detection have none.
  R.eachObject(*Top, "races", true,
               [&](const Object &O, const std::string &At) {
                 TraceRace Race;
                 Race.Access = R.location(O, "access", At);
                 Race.Copy = R.location(O, "copy", At);
                 Race.CopyApi = R.string(O, "copyApi", At);
                 Race.Write = R.boolean(O, "write", At);
                 Race.DeviceToHost = R.boolean(O, "deviceToHost", At);
                 Race.CopyBytes = R.number(O, "copyBytes", At);
                 Race.Offset = R.number(O, "offset", At);
                 Race.Count = R.number(O, "count", At);
                 Race.TimeLeftKnown = O.get("timeLeftNs") != nullptr;
                 Race.TimeLeftNs = R.integer(O, "timeLeftNs", At);
                 T.Races.push_back(std::move(Race));
               });
  if (!Error.empty())
    return llvm::createStringError(Error);
  return T;
}

llvm::Expected<TraceSite> siteFromJson(const Value &V, llvm::StringRef Where) {
  std::string Error;
  Reader R(Error);
  const Object *O = R.object(V, Where);
  if (!O)
    return llvm::createStringError(Error);
  TraceSite S = readSite(R, *O, Where.str());
  if (!Error.empty())
    return llvm::createStringError(Error);
  return S;
}

llvm::Expected<Trace> readTrace(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read '" + Path +
                                       "': " + Buffer.getError().message());
  llvm::Expected<Value> V = llvm::json::parse((*Buffer)->getBuffer());
  if (!V)
    return llvm::createStringError(
        "'" + Path + "' is not JSON: " + llvm::toString(V.takeError()));
  llvm::Expected<Trace> T = traceFromJson(*V);
  if (!T)
    return llvm::createStringError("'" + Path +
                                   "': " + llvm::toString(T.takeError()));
  return T;
}

std::string formatDuration(std::uint64_t Ns) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Ns >= 10'000'000'000ull)
    OS << llvm::format("%.0f s", Ns / 1e9);
  else if (Ns >= 1'000'000'000ull)
    OS << llvm::format("%.1f s", Ns / 1e9);
  else if (Ns >= 10'000'000ull)
    OS << llvm::format("%.0f ms", Ns / 1e6);
  else if (Ns >= 1'000'000ull)
    OS << llvm::format("%.1f ms", Ns / 1e6);
  else
    OS << llvm::format("%.0f us", Ns / 1e3);
  return Out;
}

std::string formatTimes(std::uint64_t N) {
  return N == 1 ? "once" : std::to_string(N) + " times";
}

std::string formatBytes(std::uint64_t Bytes) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Bytes >= (1ull << 30))
    OS << llvm::format("%.1f GiB", Bytes / double(1ull << 30));
  else if (Bytes >= (1ull << 20))
    OS << llvm::format("%.1f MiB", Bytes / double(1ull << 20));
  else if (Bytes >= (1ull << 10))
    OS << llvm::format("%.1f KiB", Bytes / double(1ull << 10));
  else
    OS << Bytes << " B";
  return Out;
}

} // namespace cuda_async_trace
