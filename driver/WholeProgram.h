//===- WholeProgram.h - Summaries of every translation unit -----*- C++ -*-===//
//
// The driver's side of whole-program provenance (summaries/ProgramSummaries.h):
// the first phase, which summarizes every unit of the program (the whole
// compilation database, or the files named together) in worker processes,
// from the summary cache where it can; the summary store files
// (--emit-summaries, --summaries, --merge-summaries); and the shards of a CI
// matrix (--shard=i/n).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H
#define CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H

#include "Analysis.h"
#include "TranslationUnitCache.h"
#include "summaries/ProgramSummaries.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_async_lint {

/// "i/n": shard i (from 1) of n. An error says what is wrong with \p Text.
llvm::Expected<ProgramSummaries::ShardOf> parseShard(llvm::StringRef Text);

/// The files of shard \p S of \p Files (sorted): every n-th from the i-th,
/// so that each shard gets as many and every file one shard.
std::vector<std::string> filesOfShard(const std::vector<std::string> &Files,
                                      ProgramSummaries::ShardOf S);

/// The first phase: the summaries of \p Files, the units of a program
/// (\p EveryCaller: all of them, so that their calls are every call), from
/// \p Cache where it holds them (null: no cache). A unit that does not parse
/// has no summary: \p OnFailure hears of it.
/// \p OnSummarized(File, Ended, Total) hears of each unit summarized (not
/// of those the cache holds), as it ends.
std::shared_ptr<ProgramSummaries> summarizeProgram(
    const std::vector<std::string> &Files, bool EveryCaller,
    const AnalysisOptions &Options, TranslationUnitCache *Cache,
    llvm::function_ref<void(const FailedFile &)> OnFailure,
    llvm::function_ref<void(llvm::StringRef, size_t, size_t)> OnSummarized);

/// Writes \p Program to \p Path, whole or not at all.
llvm::Error writeSummaryStore(const ProgramSummaries &Program,
                              llvm::StringRef Path);

/// One store of the stores at \p Paths (the shards of a CI matrix).
llvm::Expected<std::shared_ptr<ProgramSummaries>>
mergeSummaryStores(llvm::ArrayRef<std::string> Paths);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_WHOLEPROGRAM_H
