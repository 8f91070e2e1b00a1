//===- LegacyStreamWork.h - Work held back by the legacy stream -*- C++ -*-===//
//
// "The legacy default stream ... synchronizes with all other blocking
// streams": an operation on it waits for all earlier work and holds back all
// later work of blocking streams until it is done. It costs overlap when
// work on a created stream is issued while it may still be pending: that work
// could have run beside it. A forward dataflow over clang's CFG of the
// legacy-stream operations that may still be pending (issued, not waited
// for by the host), back edges included, finds those operations; a final
// join on the legacy stream, followed by nothing or by a wait, holds back
// nothing.
//
// Across the unit's functions: a call of one that issues held-back work
// before it waits for the legacy stream is that work, as its caller sees
// it; a call of one that returns with legacy work in flight is legacy work
// (LegacyCallees). A per-object member function called in the caller's loop
// ('ops[i].run()') holds back the next call's work so.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <map>
#include <optional>

namespace cuda_async_lint {

class StreamCreations;
class SyncSummaries;

/// What a function of the unit does to the legacy stream, as its callers
/// see it.
struct CalleeLegacyWork {
  /// Work on a created blocking stream it issues before it waits for the
  /// legacy stream, on some path (its first, in source order; a call of
  /// another such function): the caller's legacy work in flight holds it
  /// back.
  const clang::CallExpr *FirstHeldBack = nullptr;
  /// Legacy work that may still be in flight when it returns (its first,
  /// in source order), or null.
  const clang::CallExpr *LeftInFlight = nullptr;
};

/// The unit's functions' CalleeLegacyWork, found at their first call.
class LegacyCallees {
public:
  LegacyCallees(clang::ASTContext &Ctx, SyncSummaries &Syncs,
                const StreamCreations &Created)
      : Ctx(Ctx), Syncs(Syncs), Created(Created) {}
  /// \p FD's work, if it is a function of the unit with a body; null for
  /// anything else, and while \p FD's own is being found (recursion).
  const CalleeLegacyWork *of(const clang::FunctionDecl *FD);

private:
  clang::ASTContext &Ctx;
  SyncSummaries &Syncs;
  const StreamCreations &Created;
  std::map<const clang::FunctionDecl *, std::optional<CalleeLegacyWork>> Known;
};

/// For each operation of \p FD on the legacy default stream that holds back
/// work on a created stream: the first such work (in source order). In a
/// \p PerThread build only cudaStreamLegacy, written out, is the legacy
/// stream. \p Created: the unit's stream creations (a stream created
/// cudaStreamNonBlocking anywhere in the unit is never held back).
/// \p Callees: the unit's functions' work; a call of one that returns with
/// legacy work in flight is a key, a call of one that issues held-back
/// work first a value.
std::map<const clang::CallExpr *, const clang::CallExpr *>
legacyWorkHoldingBack(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                      bool PerThread, SyncSummaries &Syncs,
                      const StreamCreations &Created, LegacyCallees &Callees);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H
