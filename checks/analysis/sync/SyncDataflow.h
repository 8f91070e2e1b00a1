//===- SyncDataflow.h - What a function always synchronizes -----*- C++ -*-===//
//
// The must-analysis behind SyncSummary: what a function synchronizes on
// every path to its exit (the device, its stream and event parameters, the
// stream and event members of its own object). What a call of another
// function synchronizes is asked of the caller of the analysis, which keeps
// the summaries of a unit (SyncSummaries, pending/PendingTransfers.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCDATAFLOW_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCDATAFLOW_H

#include "SyncSummary.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

/// What a call of \p Callee (not a CUDA call) synchronizes for its caller;
/// sets its third argument to the callee's summary, null if none.
using CallSyncsQuery = llvm::function_ref<CallSyncs(
    const clang::CallExpr *, const clang::FunctionDecl *Callee,
    const SyncSummary *&)>;

/// What \p Def (a function with a body) synchronizes on every path to its
/// exit; nothing if its CFG cannot be built.
SyncSummary summarizeSyncs(const clang::FunctionDecl *Def,
                           clang::ASTContext &Ctx, CallSyncsQuery CallSyncsOf);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNC_SYNCDATAFLOW_H
