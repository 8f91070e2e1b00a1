//===- ProgramRun.cpp - A run over a program's translation units ----------===//

#include "ProgramRun.h"
#include "Config.h"
#include "config/ExtraArgs.h"
#include "run/SummaryStore.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_async_lint {

Expected<std::unique_ptr<ProgramRun>>
ProgramRun::open(const Invocation &I, const Configuration &Config,
                 const GpuHeaders &Headers, RunInputs In) {
  std::unique_ptr<ProgramRun> Run(new ProgramRun(I, std::move(In)));
  AnalysisOptions &Options = Run->Options;
  Options.Database = Run->In.Database.get();
  Options.Adjuster =
      makeCommandAdjuster(Headers, CUDA_ASYNC_LINT_CLANG_RESOURCE_DIR);
  Options.Config = &Config;
  Options.Jobs = I.Jobs;
  Options.ParkedMemory = I.ParkedMemory;
  if (I.ShortestParkedParse)
    Options.ShortestParkedParse =
        std::chrono::milliseconds(*I.ShortestParkedParse);
  Options.Timeout = I.Timeout;
  if (I.Verbose)
    for (const std::string &F : Run->In.Files)
      for (const auto &Command : Run->In.Database->getCompileCommands(F)) {
        // The command the parse runs: the translated one, then the file's
        // ExtraArgsBefore and ExtraArgs (.clang-tidy, --extra-arg).
        std::vector<std::string> Args = parseAdjuster(
            Options.Adjuster, Config.optionsFor(F))(Command.CommandLine, F);
        // A command after '--' is LibTooling's, named 'clang-tool': the
        // parse runs clang's driver in process, in its 'clang' mode.
        if (!Args.empty() && sys::path::filename(Args[0]) == "clang-tool")
          Args[0] = "clang";
        // Quoted as a shell reads it back: "-DX=a b" is one argument.
        errs() << "cuda-async-lint: " << F << ":";
        for (const std::string &A : Args) {
          errs() << ' ';
          sys::printArg(errs(), A, /*Quote=*/false);
        }
        errs() << "\n";
      }

  // Whole-program provenance: the program is the whole database, else the
  // files named together; its summaries come from a store, or from the
  // one parse of each unit.
  Run->Program =
      I.BuildPath.empty() ? Run->In.Files : sourceFilesOf(*Run->In.Database);
  // An excluded file is no part of the program either.
  if (Run->In.Excludes && !I.BuildPath.empty())
    if (Error E = Run->In.Excludes->removeExcluded(Run->Program, Config,
                                                   /*Excluded=*/nullptr))
      return std::move(E);
  if (I.Shard) {
    std::vector<std::string> Mine = filesOfShard(Run->Program, *I.Shard);
    std::set<std::string> InShard(Mine.begin(), Mine.end());
    llvm::erase_if(Run->In.Files,
                   [&](const std::string &F) { return !InShard.count(F); });
    if (!I.EmitSummaries.empty())
      Run->Program = std::move(Mine);
  }
  Run->Analysed.insert(Run->In.Files.begin(), Run->In.Files.end());

  if (!I.CacheDir.empty()) {
    Expected<TranslationUnitCache> Summaries =
        TranslationUnitCache::open(I.CacheDir, "summaries");
    if (!Summaries)
      return Summaries.takeError();
    Run->Cache.emplace(std::move(*Summaries));
    Expected<TranslationUnitCache> Results =
        TranslationUnitCache::open(I.CacheDir, "results");
    if (!Results)
      return Results.takeError();
    Run->ResultCache.emplace(std::move(*Results));
  }
  if (!Run->ResultCache && (!I.SummariesIn.empty() || !I.EmitSummaries.empty()))
    Run->StoreResults.emplace(TranslationUnitCache::inMemory("results"));
  if (Run->ResultCache)
    Options.Results = &*Run->ResultCache;
  else if (Run->StoreResults)
    Options.Results = &*Run->StoreResults;

  if (!I.SummariesIn.empty()) {
    // Read to be asked, never written: without the units' documents.
    Expected<SummaryStore> Store =
        readSummaryStore(I.SummariesIn, /*Documents=*/false);
    if (!Store)
      return Store.takeError();
    Run->Read = std::move(Store->Program);
    for (llvm::json::Object &Entry : Store->Results)
      Options.Results->preload(std::move(Entry));
  } else if (!I.EmitSummaries.empty() ||
             (I.WholeProgram && Run->Program.size() > 1)) {
    Run->OneParse = true;
  }

  // With -p the program is the whole database, of which an --emit-summaries
  // run with --shard parses one shard, leaving the resolution to the run
  // that reads the merged store.
  Run->Scope.EveryCaller = !I.BuildPath.empty();
  if (!I.EmitSummaries.empty()) {
    Run->Scope.Shard = I.Shard;
    Run->Scope.Resolve = false;
  }
  return std::move(Run);
}

void ProgramRun::summaryFailed(const FailedFile &F) {
  ++SummaryFailures;
  // An error where summaries are the product; a warning for a unit the run
  // does not analyse (the analysis reports the others' failures itself).
  bool Emitting = !I.EmitSummaries.empty();
  if (!Emitting && Analysed.count(F.File))
    return;
  errs() << "cuda-async-lint: " << (Emitting ? "error" : "warning")
         << ": cannot summarize '" << F.File << "': " << F.Reason
         << (F.Errors.empty() ? "\n" : ":\n") << F.Errors;
}

ProgramAnalysis ProgramRun::analyzeProgram() {
  return cuda_async_lint::analyzeProgram(
      Program, In.Files, Scope, Options, Cache ? &*Cache : nullptr,
      [&](const FailedFile &F) { summaryFailed(F); },
      [&](StringRef File, size_t Ended, size_t Total) {
        if (!Parsing)
          Parsing.emplace(Total, errs(), Progress::wanted(), "parsed",
                          progressEvery(I), Started);
        Parsing->fileEnded(File, Ended);
      },
      // Units the whole program answered otherwise, parsed again: on a
      // large project minutes with no other file ending.
      [&](StringRef File, size_t Ended, size_t Total) {
        if (!ParsingAgain)
          ParsingAgain.emplace(Total, errs(), Progress::wanted(),
                               "parsed again", progressEvery(I), Started);
        ParsingAgain->fileEnded(File, Ended);
      });
}

void ProgramRun::saySummaryStatistics() const {
  if (I.Verbose && Cache)
    errs() << "cuda-async-lint: summaries of " << Program.size()
           << " translation units: " << Cache->hits() << " from the cache, "
           << Cache->misses() << " made\n";
}

} // namespace cuda_async_lint
