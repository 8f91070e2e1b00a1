//===- IterationWork.h - What a loop iteration issued, not waited for -*- C++
//-*-===//
//
// A forward dataflow over clang's CFG of the async operations (copies,
// memsets, launches) issued in the current iteration of their loops and not
// yet waited for. A synchronization removes what it covers; an event
// record remembers what it covers, for the event's synchronization. Taking a
// loop's back edge ages its body's operations: in the next iteration they
// belong to the previous one, and waiting for them is double buffering, not
// a per-iteration wait.
//
// A loop that fans work out over several streams (a stream per iteration:
// 'for (k...) launch(s[k])') is different: its iterations are parts of one
// step of the loop around it. Its back edge ages its operations for itself
// only; for the enclosing loop they are still the current iteration's, and
// a wait for them there ('sync(s[0]); sync(s[1]); sync(s[2]);' after the
// fan-out) waits for that iteration's work.
//
// For each synchronization, the operations issued earlier that it waits
// for, each with the loop it was aged through: cuda-async-sync-in-loop's
// question.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONWORK_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONWORK_H

#include "analysis/sync/NonBlockingStreams.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <map>
#include <vector>

namespace cuda_async_lint {

/// True if the synchronization \p Sync (an API call of \p Api) waits for
/// \p Op on its stream. \p PerThread: compiled with --default-stream
/// per-thread, where 0 and blocking calls wait for the per-thread stream
/// only; otherwise blocking calls wait for the streams \p Created says are
/// blocking.
bool syncCovers(const clang::CallExpr *Sync, const ApiSpec &Api,
                const AsyncOperation &Op, bool PerThread,
                const StreamCreations &Created);

/// True if a library call that waits for the stream \p Waited before it
/// returns (libraryWaitStream: Thrust's 'par.on(s)') has waited for \p Op:
/// work on that stream, not on another element of the same array of
/// streams ('streams[1]' for 'par.on(streams[0])').
bool libraryWaitCovers(const clang::Expr *Waited, const AsyncOperation &Op,
                       const clang::ASTContext &Ctx);

/// True if \p Call blocks the host: a stream, device or event
/// synchronization, or a blocking copy that involves host memory (a
/// device-to-device one, or one of unknown direction, does not count).
bool isHostSynchronization(const clang::CallExpr *Call,
                           const clang::ASTContext &Ctx);

/// An operation a synchronization waits for, and the outermost loop whose
/// back edge it crossed since it was issued (null: none): it is the
/// current iteration's work of the loops that contain that loop, not of
/// that loop or the loops in it.
struct WaitedOperation {
  AsyncOperation Op;
  const clang::Stmt *AgedThrough = nullptr;

  /// Whether it is the current iteration's work of \p Loop, a loop that
  /// contains its call.
  bool currentIn(const clang::Stmt *Loop, const clang::SourceManager &SM) const;
};

/// The operations each synchronization of \p FD waits for that the current
/// iteration of some loop issued, in issue order.
std::map<const clang::CallExpr *, std::vector<WaitedOperation>>
iterationWaits(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
               bool PerThread, const StreamCreations &Created);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONWORK_H
