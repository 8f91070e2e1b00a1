//===- SummaryJournal.h - Summaries made while a worker parses --*- C++ -*-===//
//
// A whole-program run checks each unit against the summaries known when its
// worker starts (WholeProgram.h). A parse takes seconds, during which other
// workers end: the parent appends each summary it receives to this journal,
// one JSON line per unit, and a worker reads what was appended since it was
// forked once its own parse is done, so that it checks against every summary
// made meanwhile. Fewer of its questions are then answered otherwise by the
// whole program, and fewer units are parsed again.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_SUMMARYJOURNAL_H
#define CUDA_ASYNC_LINT_DRIVER_SUMMARYJOURNAL_H

#include "summaries/ProgramSummaries.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <memory>

namespace cuda_async_lint {

class SummaryJournal {
public:
  /// A journal in a temporary file that has no name (workers inherit its
  /// descriptor); null if none can be made (the run then checks against
  /// what its workers knew when forked).
  static std::unique_ptr<SummaryJournal> create();
  ~SummaryJournal();

  /// In the parent: appends \p Unit, the summary of unit \p Index.
  void append(size_t Index, const llvm::json::Object &Unit);

  /// In a worker: adds to \p Known the units appended since this worker was
  /// forked (its copy of the journal knows how much was written then). A
  /// line the parent is still writing is left out.
  void readNew(ProgramSummaries &Known) const;
  /// Each unit's summary appended so far, with its index, in the order
  /// appended.
  void readAll(llvm::function_ref<void(size_t, llvm::json::Object)> Each) const;
  /// The bytes appended so far.
  uint64_t size() const;

private:
  void read(uint64_t From,
            llvm::function_ref<void(size_t, llvm::json::Object)> Each) const;
  explicit SummaryJournal(int FD) : FD(FD) {}
  int FD;
  uint64_t Written = 0;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_SUMMARYJOURNAL_H
