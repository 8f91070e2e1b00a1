//===- ProgramRun.h - A run over a program's translation units --*- C++ -*-===//
//
// What the analyse and emit-summaries modes share: each unit's analysis
// options, the program the units belong to (the whole database with -p,
// else the files named together) and the shard of it this run parses, the
// summary and result caches, the summary store read, and how a unit that
// cannot be summarized is said.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_CLI_PROGRAMRUN_H
#define CUDA_ASYNC_LINT_DRIVER_CLI_PROGRAMRUN_H

#include "Invocation.h"
#include "Setup.h"
#include "run/Analysis.h"
#include "run/Progress.h"
#include "run/TranslationUnitCache.h"
#include "run/WholeProgram.h"
#include <memory>
#include <optional>
#include <set>

namespace cuda_async_lint {

class ProgramRun {
public:
  /// Errors: a cache directory that cannot be used, a summary store
  /// (--summaries) that cannot be read.
  static llvm::Expected<std::unique_ptr<ProgramRun>>
  open(const Invocation &I, const Configuration &Config,
       const GpuHeaders &Headers, RunInputs In);

  /// Each unit's analysis; a mode adds the callbacks it reports through.
  AnalysisOptions Options;

  /// The files this run analyses (this shard's, with --shard).
  const std::vector<std::string> &files() const { return In.Files; }
  /// The files --exclude or the configuration left out.
  const std::vector<std::string> &excluded() const { return In.Excluded; }
  /// The program's units this run summarizes.
  const std::vector<std::string> &programFiles() const { return Program; }
  /// The summaries a store (--summaries) gave; null if none was read.
  std::shared_ptr<ProgramSummaries> summariesRead() const { return Read; }
  /// Whether the run parses each unit once for the program's summaries and
  /// its findings (analyzeProgram), rather than only checking each.
  bool oneParse() const { return OneParse; }
  /// Whether results are kept in a cache directory.
  bool hasResultCache() const { return ResultCache.has_value(); }
  /// Units that could not be summarized so far.
  unsigned summaryFailures() const { return SummaryFailures; }

  /// The one-parse analysis of the program's units, findings of files().
  ProgramAnalysis analyzeProgram();
  /// --verbose: how many summaries the cache gave.
  void saySummaryStatistics() const;

private:
  ProgramRun(const Invocation &I, RunInputs In) : I(I), In(std::move(In)) {}
  void summaryFailed(const FailedFile &F);

  const Invocation &I;
  RunInputs In;
  std::vector<std::string> Program;
  std::set<std::string> Analysed;
  ProgramScope Scope;
  bool OneParse = false;
  std::shared_ptr<ProgramSummaries> Read;
  /// One directory, two caches: the units' summaries and their results.
  std::optional<TranslationUnitCache> Cache, ResultCache;
  /// The results a store carries, and those an --emit-summaries run keeps
  /// for it, are result cache entries: in memory where no cache directory
  /// is given.
  std::optional<TranslationUnitCache> StoreResults;
  unsigned SummaryFailures = 0;
  /// "[n/N] parsed file" as each unit of a one-parse run ends, and as each
  /// unit parsed again to check it against the whole program ends; their
  /// seconds counted from the run's start.
  std::optional<Progress> Parsing, ParsingAgain;
  std::chrono::steady_clock::time_point Started =
      std::chrono::steady_clock::now();
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_CLI_PROGRAMRUN_H
