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
// For each synchronization, the operations issued earlier in the same
// iteration that it waits for: cuda-async-sync-in-loop's question.
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

/// True if \p Call blocks the host: a stream, device or event
/// synchronization, or a blocking copy that involves host memory (a
/// device-to-device one, or one of unknown direction, does not count).
bool isHostSynchronization(const clang::CallExpr *Call,
                           const clang::ASTContext &Ctx);

/// The operations of the current iteration each synchronization of \p FD
/// waits for, in issue order.
std::map<const clang::CallExpr *, std::vector<AsyncOperation>>
iterationWaits(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
               bool PerThread, const StreamCreations &Created);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONWORK_H
