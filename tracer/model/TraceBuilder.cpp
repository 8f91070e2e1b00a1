//===- TraceBuilder.cpp - Raw traces into the trace -----------------------===//

#include "TraceBuilder.h"
#include "CallSiteSymbolizer.h"
#include "RuntimeFindings.h"

#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>
#include <tuple>

namespace cuda_async_trace {

namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

llvm::Error malformed(llvm::StringRef Path, const llvm::Twine &What) {
  return llvm::createStringError("'" + Path +
                                 "' is not a usable raw trace: " + What);
}

std::vector<std::uint64_t> addresses(const Value *V) {
  std::vector<std::uint64_t> Out;
  if (const Array *A = V ? V->getAsArray() : nullptr)
    for (const Value &E : *A)
      if (auto N = E.getAsUINT64())
        Out.push_back(*N);
  return Out;
}

using SiteKey =
    std::tuple<std::string, unsigned, unsigned, std::string, std::string>;
/// A race by the access's line, the copy's line, read or write.
using RaceKey = std::tuple<std::string, unsigned, std::string, unsigned, bool>;

} // namespace

llvm::Expected<FinishedTrace> finishTrace(llvm::ArrayRef<std::string> RawPaths,
                                          const FinishOptions &Options) {
  FinishedTrace Out;
  CallSiteSymbolizer Symbolizer(Options.SymbolDirs);
  std::map<SiteKey, TraceSite> Sites;
  std::map<RaceKey, TraceRace> Races;
  for (const std::string &Path : RawPaths) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(),
                                     "cannot read '" + Path +
                                         "': " + Buffer.getError().message());
    llvm::Expected<Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
    if (!Parsed)
      return malformed(Path, "not JSON (" + llvm::toString(Parsed.takeError()) +
                                 "); the program may have died while "
                                 "writing it");
    const Object *Top = Parsed->getAsObject();
    if (!Top || Top->getString("format") != "cuda-async-trace-raw")
      return malformed(Path, "its 'format' is not 'cuda-async-trace-raw'");
    if (Top->getInteger("version") != 1)
      return malformed(
          Path, "raw trace version " +
                    std::to_string(Top->getInteger("version").value_or(0)) +
                    " is not supported (this build reads 1)");
    const Object *Process = Top->getObject("process");
    const Array *Modules = Top->getArray("modules");
    const Array *Stacks = Top->getArray("stacks");
    const Array *RawSites = Top->getArray("sites");
    if (!Process || !Modules || !Stacks || !RawSites)
      return malformed(Path, "it lacks 'process', 'modules', 'stacks' or "
                             "'sites'");

    std::vector<RawModule> Loaded;
    for (const Value &MV : *Modules) {
      const Object *MO = MV.getAsObject();
      if (!MO)
        return malformed(Path, "a module is not an object");
      RawModule M;
      M.Path = MO->getString("path").value_or("").str();
      M.Base = MO->get("base") ? MO->get("base")->getAsUINT64().value_or(0) : 0;
      M.BuildId = MO->getString("buildId").value_or("").str();
      if (const Array *Ranges = MO->getArray("ranges"))
        for (const Value &R : *Ranges) {
          std::vector<std::uint64_t> Pair = addresses(&R);
          if (Pair.size() == 2)
            M.Ranges.emplace_back(Pair[0], Pair[1]);
        }
      Loaded.push_back(std::move(M));
    }

    TracedProcess P;
    P.Pid = static_cast<long>(Process->getInteger("pid").value_or(0));
    P.Executable = Loaded.empty() ? "" : Loaded.front().Path;
    P.Signal = static_cast<int>(Process->getInteger("signal").value_or(0));
    auto Count = [&](llvm::StringRef Key) {
      const Value *V = Process->get(Key);
      return V ? V->getAsUINT64().value_or(0) : 0;
    };
    P.StreamsCreated = Count("streamsCreated");
    P.ActivityRecords = Count("activityRecords");
    P.UnmatchedActivity = Count("unmatchedActivity");
    P.DroppedActivity = Count("droppedActivity");
    if (const Object *Races = Process->getObject("raceDetection")) {
      P.DetectedRaces = true;
      P.WatchedCopies = Races->getInteger("watchedCopies").value_or(0);
      P.UnwatchedCopies = Races->getInteger("unwatchedCopies").value_or(0);
      for (const RaceCounter &C : RaceCounters)
        P.*C.Field =
            static_cast<std::uint64_t>(Races->getInteger(C.Name).value_or(0));
      // The raw trace keeps this one with the costs.
      if (const Object *Costs = Races->getObject("costs"))
        P.BytesNeverWatched =
            Costs->getInteger("bytesNeverWatched").value_or(0);
      if (std::optional<llvm::StringRef> C = Races->getString("coverage"))
        P.Coverage = C->str();
    }
    if (P.Signal) {
      std::vector<std::string> Names;
      if (const Array *A = Process->getArray("crashSymbols"))
        for (const Value &N : *A)
          Names.push_back(N.getAsString().value_or("").str());
      CallSite Crash = Symbolizer.callSite(
          Loaded, addresses(Process->get("crashStack")), Names);
      P.Crash = Crash.Location;
      P.CrashedIn = Crash.ReleasedIn;
    }
    if (Out.T.Tracer.empty())
      Out.T.Tracer = Process->getString("tracer").value_or("").str();

    std::vector<SourceLocation> StackSites;
    for (const Value &SV : *Stacks)
      StackSites.push_back(
          Symbolizer.callSite(Loaded, addresses(&SV)).Location);
    std::vector<std::pair<std::string, std::uint64_t>> SiteApis;

    for (size_t I = 0; I < RawSites->size(); ++I) {
      std::string Where = "sites[" + std::to_string(I) + "]";
      llvm::Expected<TraceSite> S = siteFromJson((*RawSites)[I], Where);
      if (!S)
        return malformed(Path, llvm::toString(S.takeError()));
      std::uint64_t Stack = 0;
      if (const Object *O = (*RawSites)[I].getAsObject())
        if (const Value *V = O->get("stack"))
          Stack = V->getAsUINT64().value_or(0);
      if (Stack >= StackSites.size())
        return malformed(Path, Where + " names stack " + std::to_string(Stack) +
                                   " of " + std::to_string(StackSites.size()));
      S->Location = StackSites[Stack];
      SiteApis.emplace_back(S->Api, Stack);
      if (!S->Location.known())
        Out.T.UnlocatedCalls += S->Calls;
      SiteKey Key{S->Location.File, S->Location.Line, S->Location.Column,
                  S->Api, S->Kind};
      auto [It, Inserted] = Sites.emplace(Key, *S);
      if (!Inserted)
        It->second.add(*S);
    }
    if (const Array *RawRaces = Top->getArray("races"))
      for (size_t I = 0; I < RawRaces->size(); ++I) {
        std::string Where = "races[" + std::to_string(I) + "]";
        const Object *RO = (*RawRaces)[I].getAsObject();
        if (!RO)
          return malformed(Path, Where + " is not an object");
        auto Field = [&](llvm::StringRef Key) {
          const Value *V = RO->get(Key);
          return V ? V->getAsUINT64().value_or(0) : 0;
        };
        std::uint64_t CopySite = Field("copySite"), Stack = Field("stack");
        if (CopySite >= SiteApis.size() || Stack >= StackSites.size())
          return malformed(Path, Where + " names a site or stack it lacks");
        TraceRace R;
        // The access is the program's own line; one the CUDA libraries made
        // themselves has none, and is not the program's race.
        R.Access = StackSites[Stack];
        if (!R.Access.known()) {
          ++Out.T.UnlocatedCalls;
          continue;
        }
        R.Copy = StackSites[SiteApis[CopySite].second];
        R.CopyApi = SiteApis[CopySite].first;
        R.Write = RO->getString("access") == "write";
        R.DeviceToHost = RO->getString("direction") == "device-to-host";
        R.CopyBytes = Field("copyBytes");
        R.Offset = Field("offset");
        R.Count = Field("count");
        std::uint64_t Access = Field("accessNs"), End = Field("copyEndNs");
        if (Access && End) {
          R.TimeLeftKnown = true;
          R.TimeLeftNs = static_cast<std::int64_t>(End - Access);
        }
        RaceKey Key{R.Access.File, R.Access.Line, R.Copy.File, R.Copy.Line,
                    R.Write};
        auto [It, Inserted] = Races.emplace(Key, R);
        if (!Inserted)
          It->second.Count += R.Count;
      }
    Out.T.Processes.push_back(std::move(P));
  }
  for (auto &[Key, S] : Sites)
    Out.T.Sites.push_back(std::move(S));
  for (auto &[Key, R] : Races)
    Out.T.Races.push_back(std::move(R));
  Out.T.Findings = runtimeFindings(Out.T);

  for (const std::string &M : Symbolizer.unreadableModules())
    Out.Warnings.push_back("cannot read '" + M +
                           "' (moved, rebuilt, or on another machine): its "
                           "frames have no lines; pass --symbols DIR where a "
                           "copy with the same build id is");
  if (Out.T.UnlocatedCalls)
    Out.Warnings.push_back(
        std::to_string(Out.T.UnlocatedCalls) +
        " calls have no source line: build the program with -g or -lineinfo");
  return Out;
}

} // namespace cuda_async_trace
