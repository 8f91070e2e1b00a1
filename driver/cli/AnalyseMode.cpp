//===- AnalyseMode.cpp - The files' findings, reported --------------------===//
//
// The main job: each file parsed and checked (with the whole program's
// summaries, one parse per unit), its findings joined with a runtime trace,
// filtered by baseline, lines and diff, and reported; text on stdout
// streams as each file's findings are final.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "Modes.h"
#include "ProgramRun.h"
#include "ReportWriting.h"
#include "RunSummary.h"
#include "UsageError.h"
#include "report/ReportSelection.h"
#include "report/RuntimeTraceJoin.h"
#include "report/SourceRoot.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <sys/resource.h>

using namespace llvm;

namespace cuda_async_lint {
namespace {

/// What standard error has said once in a run.
struct SaidOnce {
  std::set<std::string> ConfigWarnings;
  /// A first error (a header's, as every unit including it meets it) ->
  /// the file whose errors were shown in full with it.
  std::map<std::string, std::string> FirstErrors;
};

/// Says what the file's analysis reported beside its findings: errors
/// (a first error already shown with another file's is pointed back to),
/// configuration warnings (each once per run), --verbose's timings.
void sayFileOutcome(const Invocation &I, const FileResult &FR, SaidOnce &Said) {
  for (const std::string &W : FR.ConfigurationWarnings)
    if (Said.ConfigWarnings.insert(W).second)
      errs() << "cuda-async-lint: warning: " << W << "\n";
  if (const std::optional<FailedFile> &Failure = FR.Failure) {
    errs() << "cuda-async-lint: error: cannot analyse '" << Failure->File
           << "': " << Failure->Reason;
    StringRef First = firstErrorLine(Failure->Errors);
    auto [Shown, New] = Said.FirstErrors.try_emplace(First.str(), FR.File);
    if (!First.empty() && !New)
      errs() << ", at the error shown for '" << Shown->second << "': " << First
             << "\n";
    else
      errs() << (Failure->Errors.empty() ? "\n" : ":\n") << Failure->Errors;
  }
  if (const std::optional<FailedFile> &Tolerated = FR.ToleratedErrors)
    errs() << "cuda-async-lint: warning: '" << Tolerated->File
           << "': " << ToleratedErrorsMessage << ":\n"
           << Tolerated->Errors;
  // What the analysis costs beside the parse, measured in the worker:
  // scripts/benchmark.py reads it per file.
  if (I.Verbose && FR.ParseMicroseconds)
    errs() << formatv("cuda-async-lint: {0}: parsed in {1:f1} ms, analysed "
                      "in {2:f1} ms ({3:f1}% of the parse)\n",
                      FR.File, FR.ParseMicroseconds / 1e3,
                      FR.AnalysisMicroseconds / 1e3,
                      100.0 * FR.AnalysisMicroseconds / FR.ParseMicroseconds);
}

/// --verbose: what the one-parse run did (scripts/benchmark.py --program
/// reads it: the resolution step is this process's, as is the memory of
/// the summaries).
void sayProgramStatistics(const ProgramAnalysis &Whole) {
  for (const auto &[File, Why] : Whole.AnalysedAgain)
    errs() << "cuda-async-lint: " << File << ": analysed again: " << Why
           << "\n";
  errs() << "cuda-async-lint: " << Whole.Parsed
         << " translation units parsed; the findings of "
         << Whole.AnalysedAgain.size()
         << " analysed again (the whole program answered their "
            "questions otherwise), "
         << Whole.ParsedAgain << " of them parsed again\n";
  errs() << formatv("cuda-async-lint: {0} parses kept for the resolution, "
                    "{1:f1} MiB resident (--parked-memory: {2:f1} MiB)\n",
                    Whole.ParsesKept, Whole.KeptResidentBytes / 1048576.0,
                    Whole.KeptBudgetBytes / 1048576.0);
  struct rusage Usage;
  ::getrusage(RUSAGE_SELF, &Usage);
  errs() << formatv("cuda-async-lint: resolution: {0:f1} ms; this "
                    "process's peak memory: {1:f1} MiB\n",
                    Whole.ResolutionMicroseconds / 1e3,
                    Usage.ru_maxrss / 1024.0);
}

} // namespace

int analyse(const Invocation &I) {
  auto Started = std::chrono::steady_clock::now();
  Expected<ParseSetup> Parsing = parseSetupOf(I, /*WithInputs=*/true);
  if (!Parsing)
    return usageError(Parsing.takeError());
  // The outputs are checked before any analysis.
  if (Error E = checkOutputs(I, Parsing->Inputs.Files))
    return usageError(std::move(E));
  Expected<std::unique_ptr<ProgramRun>> Opened = ProgramRun::open(
      I, Parsing->Config, Parsing->Headers, std::move(Parsing->Inputs));
  if (!Opened)
    return usageError(Opened.takeError());
  ProgramRun &Run = **Opened;
  const std::vector<std::string> &Files = Run.files();

  // A database of one translation unit is a whole program too: nothing to
  // summarize, but its calls are every call of its functions.
  std::shared_ptr<ProgramSummaries> Program = Run.summariesRead();
  if (!Program && I.WholeProgram && !I.BuildPath.empty() && !I.Shard &&
      Run.programFiles().size() == 1)
    if (Expected<std::shared_ptr<ProgramSummaries>> Alone =
            ProgramSummaries::fromUnits({}, /*EveryCaller=*/true))
      Program = std::move(*Alone);
  // Summaries of its own win over a SummaryStore option.
  if (Program)
    setProgramSummaries(Program, /*FromDriver=*/true);

  Expected<std::string> SourceRoot =
      chooseSourceRoot(I.SourceRoot, Files, I.WorkingDirectory);
  if (!SourceRoot)
    return usageError(SourceRoot.takeError());
  OutputContext Ctx{*SourceRoot, CUDA_ASYNC_LINT_VERSION, docsLinksOf(I)};
  Expected<ReportSelection> Reported =
      ReportSelection::fromOptions(Ctx.SourceRoot, I.LineFilterJson, I.DiffRef,
                                   I.BaselinePath, I.WorkingDirectory);
  if (!Reported)
    return usageError(Reported.takeError());
  ReportSelection &Selected = *Reported;
  std::optional<RuntimeTraceJoin> Join;
  if (!I.RuntimeTrace.empty()) {
    Expected<cuda_async_trace::Trace> Traced =
        cuda_async_trace::readTrace(I.RuntimeTrace);
    if (!Traced)
      return usageError("--runtime-trace: " + toString(Traced.takeError()));
    Join.emplace(std::move(*Traced), I.RuntimeTrace, Ctx.SourceRoot);
  }

  bool Colors = I.Format == ReportFormat::Text && I.OutputPath.empty() &&
                sys::Process::StandardOutHasColors();
  // Text on stdout is written as each file's findings are final, in the
  // order of the files; every other report is written once complete (and
  // --fix adds its notes to the findings first).
  bool StreamText =
      I.Format == ReportFormat::Text && I.OutputPath.empty() && !I.Fix;
  if (StreamText)
    outs().enable_colors(Colors);
  Progress Shown(Files.size(), errs(), Progress::wanted(), "",
                 progressEvery(I));
  AnalysisOptions &Options = Run.Options;
  // A store's (or the cache's) result the whole program answers otherwise:
  // --verbose says why its unit is parsed again, as a one-parse run does.
  if (I.Verbose)
    Options.OnResultOutdated = [](const std::string &File,
                                  const std::string &Why) {
      errs() << "cuda-async-lint: " << File << ": analysed again: " << Why
             << "\n";
    };
  Options.OnFileEnded = [&](const std::string &File, size_t Ended, size_t) {
    Shown.fileEnded(File, Ended);
  };
  SaidOnce Said;
  // NOLINT'd findings, once each (a header's, whichever units saw it).
  std::set<std::string> Suppressed;
  Options.OnFileReported = [&](FileResult &FR) {
    Suppressed.insert(FR.Suppressed.begin(), FR.Suppressed.end());
    // Before the selection: a finding the baseline drops still covers its
    // runtime counterpart.
    if (Join)
      Join->annotate(FR.Findings);
    Selected.apply(FR);
    sayFileOutcome(I, FR, Said);
    if (StreamText) {
      writeText(FR.Findings, outs(), Colors);
      outs().flush();
    }
  };

  std::optional<ProgramAnalysis> Whole;
  if (Run.oneParse())
    Whole = Run.analyzeProgram();
  Report R = Whole ? std::move(Whole->Findings) : analyzeFiles(Files, Options);
  if (Whole) {
    Run.saySummaryStatistics();
    if (I.Verbose)
      sayProgramStatistics(*Whole);
  }
  // Bugs seen only at run time: the trace's findings no static one covers.
  if (Join) {
    size_t Elsewhere = 0;
    FileResult AtRunTime;
    AtRunTime.Findings = Join->uncovered(Files, Elsewhere);
    Selected.apply(AtRunTime);
    if (StreamText) {
      writeText(AtRunTime.Findings, outs(), Colors);
      outs().flush();
    }
    R.Findings.insert(R.Findings.end(), AtRunTime.Findings.begin(),
                      AtRunTime.Findings.end());
    if (Elsewhere)
      errs() << "cuda-async-lint: " << Elsewhere << " runtime finding"
             << (Elsewhere == 1 ? "" : "s") << " of '" << I.RuntimeTrace
             << "' in files not analysed here\n";
  }
  if (I.Verbose && Options.Results) {
    size_t FromCache =
        Whole ? Whole->ResultsFromCache : Options.Results->hits();
    size_t FromStore = Whole ? 0 : Options.Results->preloadedHits();
    errs() << "cuda-async-lint: results of " << Files.size()
           << " translation units: ";
    if (!I.SummariesIn.empty())
      errs() << FromStore << " from the summary store, ";
    if (Run.hasResultCache())
      errs() << FromCache - FromStore << " from the cache, ";
    errs() << Files.size() - FromCache << " analysed\n";
  }
  if (Selected.hasBaseline())
    errs() << "cuda-async-lint: " << Selected.baselined() << " finding"
           << (Selected.baselined() == 1 ? "" : "s") << " in the baseline '"
           << I.BaselinePath << "' not reported\n";
  R.Excluded = Run.excluded();
  R.Suppressed = Suppressed.size();
  R.Baselined = Selected.baselined();
  R.BaselinedFindings = Selected.takeBaselined();

  int Status = writeRunReport(I, R, Ctx, Files, StreamText, Colors);
  if (!I.Quiet)
    sayRunSummary(I, R, Ctx, Status, StreamText,
                  std::chrono::steady_clock::now() - Started);
  return Status;
}

} // namespace cuda_async_lint
