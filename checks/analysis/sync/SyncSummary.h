//===- SyncSummary.h - What a function synchronizes -------------*- C++ -*-===//
//
// A function's effect on its callers' streams, as the pending-transfer
// analysis (PendingTransfers.h) computes it and the program summaries
// (summaries/ProgramSummaries.h) carry it to other translation units.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCSUMMARY_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCSUMMARY_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

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

/// A call as what its callee synchronizes depends on it: its number of
/// arguments, which of them are streams and events, and whether the callee,
/// lacking a summary, may synchronize anything it is given (a function of
/// another translation unit).
struct SyncShape {
  bool OpaqueWithoutSummary = false;
  unsigned NumArgs = 0;
  std::vector<unsigned> Streams, Events;

  /// "o1;n3;s1,2;e": no spaces, so that it fits in a question's text.
  std::string text() const;
  /// The inverse of text(); none for text it does not write.
  static std::optional<SyncShape> parse(llvm::StringRef Text);
};

/// What a call synchronizes for its caller: the device, and which of its
/// stream and event arguments (indices, ascending).
struct CallSyncs {
  bool Device = false;
  std::vector<unsigned> Streams, Events;
};

/// What a call of shape \p Shape of a function with \p Summary (null: none)
/// synchronizes. Without a summary, an opaque callee is assumed to
/// synchronize every stream and event it is given (precision first).
CallSyncs callSyncs(const SyncSummary *Summary, const SyncShape &Shape);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCSUMMARY_H
