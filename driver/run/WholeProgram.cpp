//===- WholeProgram.cpp ---------------------------------------------------===//

#include "WholeProgram.h"
#include "SummaryJournal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <map>

namespace cuda_async_lint {

llvm::Expected<ProgramSummaries::ShardOf> parseShard(llvm::StringRef Text) {
  auto [I, N] = Text.split('/');
  unsigned Index = 0, Count = 0;
  if (I.getAsInteger(10, Index) || N.getAsInteger(10, Count) || Count == 0 ||
      Index == 0 || Index > Count)
    return llvm::createStringError(
        "--shard='" + Text +
        "' is not 'i/n' with 1 <= i <= n (shard i of n, e.g. --shard=1/4)");
  return ProgramSummaries::ShardOf{Index, Count};
}

std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      ProgramSummaries::ShardOf S) {
  std::vector<std::string> Out;
  for (size_t I = S.Index - 1; I < Files.size(); I += S.Count)
    Out.push_back(Files[I]);
  return Out;
}

ProgramAnalysis analyzeProgram(
    const std::vector<std::string> &ProgramFiles,
    const std::vector<std::string> &Analysed, const ProgramScope &Scope,
    const AnalysisOptions &Options, TranslationUnitCache *Summaries,
    llvm::function_ref<void(const FailedFile &)> OnFailure,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnParsed) {
  ProgramAnalysis Out;
  // An analysed file outside the program (named, but not in the database)
  // is checked once the program is whole.
  const std::vector<std::string> &Units = ProgramFiles;
  std::map<std::string, size_t> UnitOf;
  for (size_t U = 0; U < Units.size(); ++U)
    UnitOf.emplace(Units[U], U);
  std::vector<std::optional<size_t>> AnalysedAs(Units.size());
  for (size_t A = 0; A < Analysed.size(); ++A)
    if (auto It = UnitOf.find(Analysed[A]); It != UnitOf.end())
      AnalysedAs[It->second] = A;

  // What the caches hold: summaries, and results whose questions are
  // checked once the program is whole.
  std::vector<std::optional<llvm::json::Object>> Summary(Units.size());
  std::vector<std::optional<std::string>> SummaryKey(Units.size());
  std::vector<std::optional<FileResult>> Result(Analysed.size());
  std::vector<std::optional<std::string>> ResultKey(Analysed.size());
  std::vector<bool> Cached(Analysed.size());
  for (size_t U = 0; U < Units.size(); ++U) {
    if (Summaries)
      SummaryKey[U] = cacheKeyOf(Units[U], Options, *Summaries);
    if (SummaryKey[U])
      if (std::optional<llvm::json::Value> V =
              Summaries->lookup(*SummaryKey[U], [](const llvm::json::Value &V) {
                return V.getAsObject();
              }))
        Summary[U] = std::move(*V->getAsObject());
  }
  for (size_t A = 0; A < Analysed.size(); ++A) {
    if (Options.Results)
      ResultKey[A] = cacheKeyOf(Analysed[A], Options, *Options.Results);
    if (ResultKey[A])
      Result[A] = cachedResult(*ResultKey[A], Options, /*Verify=*/false);
    Cached[A] = Result[A].has_value();
  }

  // The summaries known so far, which workers forked from now on check
  // against: the cache's, then each unit's as its worker ends. A shard's
  // results are checked as the whole program's will be: with every caller.
  std::shared_ptr<ProgramSummaries> Known =
      ProgramSummaries::empty(Scope.EveryCaller, /*Document=*/false);
  for (std::optional<llvm::json::Object> &S : Summary)
    if (S)
      llvm::consumeError(Known->add(llvm::json::Object(*S)));
  setProgramSummaries(Known, /*FromDriver=*/true);

  // The largest files first: the central host file of a project is often
  // its largest, and what it defines and calls is what the other units ask
  // about; a long parse started last would also leave the other workers
  // idle at the end.
  std::vector<size_t> Order;
  std::vector<uint64_t> Size(Units.size());
  for (size_t U = 0; U < Units.size(); ++U) {
    if (Summary[U] && !(AnalysedAs[U] && !Result[*AnalysedAs[U]]))
      continue;
    Order.push_back(U);
    if (llvm::sys::fs::file_size(Units[U], Size[U]))
      Size[U] = 0;
  }
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::make_pair(Size[B], A) < std::make_pair(Size[A], B);
  });
  std::vector<std::string> ToParse;
  std::vector<size_t> ParseUnit;
  std::vector<UnitWork> Work;
  for (size_t U : Order) {
    bool Summarize = !Summary[U];
    bool Check = AnalysedAs[U] && !Result[*AnalysedAs[U]];
    ToParse.push_back(Units[U]);
    ParseUnit.push_back(U);
    Work.push_back(Summarize && Check ? UnitWork::SummarizeAndCheck
                   : Summarize        ? UnitWork::Summarize
                                      : UnitWork::Check);
  }
  std::unique_ptr<SummaryJournal> Journal = SummaryJournal::create();
  size_t Ended = 0;
  runUnits(
      ToParse, [&](size_t J) { return Work[J]; }, Options,
      [&](size_t J, FileResult R) {
        size_t U = ParseUnit[J];
        OnParsed(Units[U], ++Ended, ToParse.size());
        if (Work[J] != UnitWork::Check && !R.Failure) {
          llvm::Expected<llvm::json::Value> Parsed =
              llvm::json::parse(R.Summary);
          if (Parsed && Parsed->getAsObject()) {
            if (SummaryKey[U])
              // Best effort: a cache that cannot be written costs only time.
              llvm::consumeError(
                  Summaries->store(*SummaryKey[U], *Parsed, R.SummaryInputs));
            llvm::consumeError(Known->add(*Parsed->getAsObject()));
            if (Journal)
              Journal->append(*Parsed->getAsObject());
            Summary[U] = std::move(*Parsed->getAsObject());
          } else {
            if (!Parsed)
              llvm::consumeError(Parsed.takeError());
            R.Failure =
                FailedFile{Units[U], "", "its worker's summary is damaged"};
          }
        }
        if (R.Failure && Work[J] != UnitWork::Check)
          OnFailure(*R.Failure);
        R.Summary.clear();
        if (AnalysedAs[U] && Work[J] != UnitWork::Summarize)
          Result[*AnalysedAs[U]] = std::move(R);
      },
      [&] {
        if (Journal)
          Journal->readNew(*Known);
      });
  Journal.reset();
  Out.Parsed = ToParse.size();

  // The program, whole, in the order of its files.
  auto Resolving = std::chrono::steady_clock::now();
  setProgramSummaries(nullptr, /*FromDriver=*/true);
  Known.reset();
  std::vector<llvm::json::Object> Whole;
  // Reserved: a json::Object is copied, not moved, where a vector grows.
  Whole.reserve(Summary.size());
  for (std::optional<llvm::json::Object> &S : Summary)
    if (S)
      Whole.push_back(std::move(*S));
  // Only a run that writes the store keeps the units' documents; one that
  // resolves asks the program questions only (a third of its memory).
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program =
      ProgramSummaries::fromUnits(std::move(Whole),
                                  Scope.EveryCaller && !Scope.Shard,
                                  /*Document=*/!Scope.Resolve);
  if (Program) {
    Out.Program = std::move(*Program);
    if (Scope.Shard)
      Out.Program->setShard(*Scope.Shard);
  } else {
    // Summaries this very run made do not fail to read; if they did, the
    // program is analysed without them.
    OnFailure(FailedFile{"", "", llvm::toString(Program.takeError())});
  }
  setProgramSummaries(Out.Program, /*FromDriver=*/true);
  if (!Scope.Resolve) {
    // The run that reads the store resolves the results.
    for (size_t A = 0; A < Analysed.size(); ++A)
      if (Result[A] && ResultKey[A])
        if (std::optional<llvm::json::Object> Entry =
                resultEntry(*ResultKey[A], *Result[A]))
          Out.Results.push_back(std::move(*Entry));
    return Out;
  }

  // A result stands if the program answers its questions alike.
  std::vector<std::string> Again;
  std::vector<size_t> AgainOf;
  for (size_t A = 0; A < Analysed.size(); ++A) {
    std::optional<std::string> Differs =
        Result[A] ? whyResultDiffers(*Result[A], Out.Program.get())
                  : std::nullopt;
    if (Result[A] && !Differs) {
      Out.ResultsFromCache += Cached[A];
      if (!Cached[A] && ResultKey[A])
        keepResult(*ResultKey[A], *Result[A], Options);
      continue;
    }
    if (Result[A] && !Cached[A])
      Out.AnalysedAgain.push_back({Analysed[A], *Differs});
    Result[A].reset();
    Again.push_back(Analysed[A]);
    AgainOf.push_back(A);
  }
  Out.ResolutionMicroseconds =
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - Resolving)
          .count();
  runUnits(
      Again, [](size_t) { return UnitWork::Check; }, Options,
      [&](size_t J, FileResult R) {
        size_t A = AgainOf[J];
        if (ResultKey[A])
          keepResult(*ResultKey[A], R, Options);
        Result[A] = std::move(R);
      });

  ReportBuilder Report(Analysed, Options);
  for (size_t A = 0; A < Analysed.size(); ++A)
    Report.add(A, std::move(*Result[A]));
  Out.Findings = Report.take();
  return Out;
}

} // namespace cuda_async_lint
