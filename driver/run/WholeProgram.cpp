//===- WholeProgram.cpp ---------------------------------------------------===//

#include "WholeProgram.h"
#include "ParkedParses.h"
#include "SummaryJournal.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <chrono>
#include <map>
#include <unistd.h>

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

namespace {

/// How fast a parked process reads the run's summaries and puts the
/// program together (bytes of the journal per microsecond; measured on the
/// 2,000-unit program of scripts/benchmark.py --program, docs/design.md).
constexpr uint64_t SummaryBytesReadPerMicrosecond = 100;

/// The program, whole, in the order of its files, as the resolution makes
/// it and a parked process (ParkedParses.h) makes it alike.
llvm::Expected<std::shared_ptr<ProgramSummaries>>
wholeProgram(std::vector<std::optional<llvm::json::Object>> &Summary,
             const ProgramScope &Scope) {
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
  if (Program && Scope.Shard)
    (*Program)->setShard(*Scope.Shard);
  return Program;
}

} // namespace

ProgramAnalysis analyzeProgram(
    const std::vector<std::string> &ProgramFiles,
    const std::vector<std::string> &Analysed, const ProgramScope &Scope,
    const AnalysisOptions &Options, TranslationUnitCache *Summaries,
    llvm::function_ref<void(const FailedFile &)> OnFailure,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnParsed,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnParsedAgain) {
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
  // The parses of units that check, kept to check again without a second
  // parse where the whole program answers otherwise; a run that does not
  // resolve checks nothing again.
  std::optional<ParkedParses> Parks;
  if (Scope.Resolve && Journal)
    Parks.emplace(Options.ParkedMemory.value_or(ParkedParses::defaultBudget()));
  std::vector<uint64_t> ParseMicroseconds(ToParse.size());
  uint64_t ParsedSoFar = 0;
  // In a parked process told to check: the whole program, as the
  // resolution below makes it, from the summaries this process knew and
  // those the journal holds.
  auto Rebuild = [&] {
    Journal->readAll([&](size_t J, llvm::json::Object Unit) {
      if (J < ParseUnit.size())
        Summary[ParseUnit[J]] = std::move(Unit);
    });
    setProgramSummaries(nullptr, /*FromDriver=*/true);
    Known.reset();
    llvm::Expected<std::shared_ptr<ProgramSummaries>> Whole =
        wholeProgram(Summary, Scope);
    // The driver's resolution fails alike, and reports it.
    if (!Whole)
      ::_exit(1);
    setProgramSummaries(*Whole, /*FromDriver=*/true);
  };
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
              Journal->append(J, *Parsed->getAsObject());
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
        ParseMicroseconds[J] = R.ParseMicroseconds;
        ParsedSoFar += R.ParseMicroseconds;
        // A parked process reads every summary of the run to check; once
        // that promises to cost more than a parse, none is kept.
        if (Parks && Journal && Ended && Journal->size() &&
            Journal->size() / Ended * ToParse.size() /
                    SummaryBytesReadPerMicrosecond >=
                ParsedSoFar / Ended)
          Parks->stop();
        if (AnalysedAs[U] && Work[J] != UnitWork::Summarize)
          Result[*AnalysedAs[U]] = std::move(R);
      },
      [&] {
        if (Journal)
          Journal->readNew(*Known);
      },
      Parks ? &*Parks : nullptr, Rebuild);
  uint64_t JournalBytes = Journal ? Journal->size() : 0;
  Journal.reset();
  Out.Parsed = ToParse.size();

  auto Resolving = std::chrono::steady_clock::now();
  setProgramSummaries(nullptr, /*FromDriver=*/true);
  Known.reset();
  llvm::Expected<std::shared_ptr<ProgramSummaries>> Program =
      wholeProgram(Summary, Scope);
  if (Program) {
    Out.Program = std::move(*Program);
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
    AgainOf.push_back(A);
  }
  Out.ResolutionMicroseconds =
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - Resolving)
          .count();
  // A unit whose parse is parked checks there, unless reading the whole
  // program's summaries would cost it more than its parse did; the others
  // are parsed again.
  std::vector<std::optional<size_t>> ParsedAs(Analysed.size());
  for (size_t J = 0; J < ParseUnit.size(); ++J)
    if (AnalysedAs[ParseUnit[J]])
      ParsedAs[*AnalysedAs[ParseUnit[J]]] = J;
  std::vector<std::string> Reparse;
  std::vector<size_t> ReparseOf, FromParks;
  std::map<size_t, size_t> AnalysedOfParse;
  for (size_t A : AgainOf) {
    std::optional<size_t> J = ParsedAs[A];
    if (Parks && J && Parks->holds(*J) &&
        JournalBytes / SummaryBytesReadPerMicrosecond < ParseMicroseconds[*J]) {
      FromParks.push_back(*J);
      AnalysedOfParse[*J] = A;
      continue;
    }
    Reparse.push_back(Analysed[A]);
    ReparseOf.push_back(A);
  }
  if (Parks) {
    Out.ParsesKept = Parks->kept();
    Out.KeptResidentBytes = Parks->residentNow();
    Out.KeptBudgetBytes = Parks->budget();
    Parks->check(FromParks, workerCount(Options), Options.Timeout,
                 [&](size_t J, std::optional<std::string> Output) {
                   size_t A = AnalysedOfParse[J];
                   if (Output) {
                     WorkerOutcome O;
                     O.State = WorkerOutcome::Status::Finished;
                     O.Output = std::move(*Output);
                     FileResult R = resultOfWorker(Analysed[A], std::move(O),
                                                   Options.Timeout);
                     if (!R.Failure) {
                       if (ResultKey[A])
                         keepResult(*ResultKey[A], R, Options);
                       Result[A] = std::move(R);
                       return;
                     }
                   }
                   // Not answered: parsed again, which reports why.
                   Reparse.push_back(Analysed[A]);
                   ReparseOf.push_back(A);
                 });
    Parks.reset();
  }
  Out.ParsedAgain = Reparse.size();
  size_t ParsedAgainEnded = 0;
  runUnits(
      Reparse, [](size_t) { return UnitWork::Check; }, Options,
      [&](size_t J, FileResult R) {
        if (OnParsedAgain)
          OnParsedAgain(Reparse[J], ++ParsedAgainEnded, Reparse.size());
        size_t A = ReparseOf[J];
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
