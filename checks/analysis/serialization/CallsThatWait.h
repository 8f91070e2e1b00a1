//===- CallsThatWait.h - Calls that wait for the work they issue -*- C++
//-*-===//
//
// A function that issues work on a stream and waits for that stream before
// it returns ('void Op::run() { copy(s); launch(s); copy(s);
// cudaStreamSynchronize(s); }') makes each call a wait for its own work. A
// loop that calls it once per stream (each object owning its stream:
// 'ops[i].run()'; or given a stream per iteration: 'runOne(..., s[i])')
// waits in every iteration: the iterations cannot overlap, as with a wait
// written in the loop.
//
// The stream is the caller's: a stream parameter, whose argument the caller
// chooses per iteration ('s[i]'), or a stream member of the object the
// function is called on, chosen per iteration ('ops[i]', a range-based for
// loop's variable) where the class creates that stream for each object (a
// member function or constructor calls cudaStreamCreate on it).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATWAIT_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATWAIT_H

#include "analysis/pending/PendingTransfers.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace cuda_async_lint {

/// What a call of a function that waits for its own work waits for.
struct CallWait {
  /// The wait inside the callee (a stream or device synchronization).
  const clang::CallExpr *Wait = nullptr;
  /// The first work it issues on the stream waited for.
  const clang::CallExpr *Work = nullptr;
  /// The caller's expression that chooses the stream: the stream argument,
  /// or the object whose stream member it is.
  const clang::Expr *Chooser = nullptr;
};

/// What \p Call waits for, if its callee (a function of the unit with a
/// body, not a CUDA call) issues work on a stream of its caller's and, on
/// every path that returns, synchronizes that stream (or the device) after
/// a direct call that issues it. For a member stream, only where the class
/// creates the stream for each object.
std::optional<CallWait> callWaitsForItsWork(const clang::CallExpr *Call,
                                            SyncSummaries &Syncs);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATWAIT_H
