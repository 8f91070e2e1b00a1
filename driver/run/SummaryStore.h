//===- SummaryStore.h - The file --emit-summaries writes --------*- C++ -*-===//
//
// A summary store file holds a program's summaries (summaries/
// ProgramSummaries.h) and, beside them, the results the same parses made:
// each unit's findings with the questions they asked of the program, as
// result cache entries (TranslationUnitCache.h: key, inputs, value). A run
// that reads the store takes a unit's result from it while the unit's
// inputs are unchanged and the store answers its questions alike, so that
// a CI matrix's shards each parse their units once and the job that merges
// their stores parses only the units the whole program answers otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_SUMMARYSTORE_H
#define CUDA_ASYNC_LINT_DRIVER_SUMMARYSTORE_H

#include "summaries/ProgramSummaries.h"
#include "llvm/Support/JSON.h"
#include <deque>
#include <memory>
#include <vector>

namespace cuda_async_lint {

struct SummaryStore {
  std::shared_ptr<ProgramSummaries> Program;
  /// Result cache entries of the units parsed with the summaries.
  /// A deque: a json::Object is copied, not moved, where a vector grows.
  std::deque<llvm::json::Object> Results;
};

/// The store in the file \p Path; the error names it. Without
/// \p Documents, its program answers questions only (a store read to be
/// asked, not written again).
llvm::Expected<SummaryStore> readSummaryStore(llvm::StringRef Path,
                                              bool Documents = true);

/// Writes \p Store to \p Path, whole or not at all (its results move into
/// the document: they are the store's largest part).
llvm::Error writeSummaryStore(SummaryStore Store, llvm::StringRef Path);

/// What mergeSummaryStores wrote.
struct MergedStores {
  size_t Units = 0, Results = 0;
  /// The stores were the whole program (ProgramSummaries::holdEveryCaller).
  bool EveryCaller = false;
};

/// Writes to \p Out, whole or not at all, one store of the stores at
/// \p Paths (the shards of a CI matrix): every unit's summary and every
/// result, a file's first where two stores hold it. One store is in memory
/// at a time: each is read twice, to check it and take its results (kept in
/// a temporary file), then to copy its units.
llvm::Expected<MergedStores>
mergeSummaryStores(llvm::ArrayRef<std::string> Paths, llvm::StringRef Out);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_SUMMARYSTORE_H
