//===- WholeProgram.h - Summaries of every translation unit -----*- C++ -*-===//
//
// The driver's side of whole-program provenance (summaries/ProgramSummaries.h):
// a run over every unit of the program (the whole compilation database, or
// the files named together) that summarizes and checks each unit in one
// parse, in worker processes, from the caches where it can; and the shards
// of a CI matrix (--shard=i/n).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H
#define CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H

#include "Analysis.h"
#include "TranslationUnitCache.h"
#include "summaries/ProgramSummaries.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

namespace cuda_async_lint {

/// "i/n": shard i (from 1) of n. An error says what is wrong with \p Text.
llvm::Expected<ProgramSummaries::ShardOf> parseShard(llvm::StringRef Text);

/// The files of shard \p S of \p Files (sorted): every n-th from the i-th,
/// so that each shard gets as many and every file one shard.
std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      ProgramSummaries::ShardOf S);

/// How the units analyzeProgram parses stand to the program.
struct ProgramScope {
  /// The units are the whole program (a whole compilation database, or the
  /// files named together), so that its calls are every call; with Shard,
  /// the units are a shard of such a program.
  bool EveryCaller = false;
  /// The units are this shard of the program: the store made says so, and
  /// holds every caller only once merged with the other shards'.
  std::optional<ProgramSummaries::ShardOf> Shard;
  /// Resolve the results against the program made (a unit it answers
  /// otherwise is parsed and checked again); else keep each as first made,
  /// with its questions (ProgramAnalysis::Results), for the run that reads
  /// the store to resolve.
  bool Resolve = true;
};

/// What analyzeProgram made.
struct ProgramAnalysis {
  /// The program's summaries, every unit's that could be made, in the order
  /// of their files; null if they could not be put together.
  std::shared_ptr<ProgramSummaries> Program;
  /// The findings of the analysed files, in their order.
  Report Findings;
  /// Units parsed; of the analysed, the results the cache held and the
  /// program answered alike.
  unsigned Parsed = 0, ResultsFromCache = 0;
  /// How long the resolution took: the program put together, and every
  /// analysed unit's questions asked of it.
  uint64_t ResolutionMicroseconds = 0;
  /// The files parsed and checked again, each with why: the first question
  /// the whole program answered otherwise.
  std::vector<std::pair<std::string, std::string>> AnalysedAgain;
  /// Of those, the units parsed again: their parse was not kept
  /// (ParkedParses.h), or reading the whole program would cost more.
  unsigned ParsedAgain = 0;
  /// The parses kept for the resolution (ParkedParses.h), what they held
  /// then, and the budget they were kept within.
  size_t ParsesKept = 0;
  uint64_t KeptResidentBytes = 0, KeptBudgetBytes = 0;
  /// Unresolved: each analysed unit's result as a result cache entry
  /// (SummaryStore.h), in the order of the analysed files.
  /// A deque: a json::Object is copied, not moved, where a vector grows.
  std::deque<llvm::json::Object> Results;
};

/// A whole-program run, one parse per unit: each unit of \p ProgramFiles
/// (the program, or the part \p Scope says) is parsed once, summarized from
/// that parse alone and, if it is one of
/// \p Analysed, checked in the same parse against the summaries known when
/// its worker starts (the summary cache's, and those of the units already
/// done), recording the questions it asked (ProgramQueries.h). Once every
/// unit is summarized, a result stands if the whole program answers each of
/// its questions alike; a unit it answers otherwise is parsed and checked
/// again against it (unless \p Scope leaves that to a later run). The summary
/// cache (\p Summaries, null: none) and the result cache (Options.Results)
/// spare the parse of a unit they hold. A unit that does not parse has no
/// summary: \p OnFailure hears of it.
/// \p OnParsed(File, Ended, Total) hears of each unit parsed, as it ends;
/// \p OnParsedAgain, of each unit parsed again to check it against the
/// whole program.
ProgramAnalysis analyzeProgram(
    const std::vector<std::string> &ProgramFiles,
    const std::vector<std::string> &Analysed, const ProgramScope &Scope,
    const AnalysisOptions &Options, TranslationUnitCache *Summaries,
    llvm::function_ref<void(const FailedFile &)> OnFailure,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnParsed,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnParsedAgain);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H
