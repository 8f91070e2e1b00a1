//===- SyncSummary.h - What a function synchronizes -------------*- C++ -*-===//
//
// A function's effect on its callers' streams, as the pending-transfer
// analysis (PendingTransfers.h) computes it and the program summaries
// (summaries/ProgramSummaries.h) carry it to other translation units.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNCSUMMARY_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNCSUMMARY_H

#include <set>

namespace clang {
class FieldDecl;
} // namespace clang

namespace cuda_async_lint {

/// What a function does for its callers' streams on every path.
struct SyncSummary {
  /// It synchronizes the device (or context).
  bool Device = false;
  /// The indices of stream parameters it synchronizes.
  std::set<unsigned> StreamParams;
  /// The indices of event parameters it synchronizes.
  std::set<unsigned> EventParams;
  /// A member function: the stream and event members of its object it
  /// synchronizes. Known within a translation unit only (program summaries
  /// do not carry them).
  std::set<const clang::FieldDecl *> StreamMembers;
  std::set<const clang::FieldDecl *> EventMembers;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNCSUMMARY_H
