//===- IterationOverlap.h - Could a loop's iterations overlap? --*- C++ -*-===//
//
// A wait inside a loop only costs overlap if the loop's iterations could
// otherwise run at once on the GPU. Work on one stream runs in issue order
// whatever the host does, so the iterations must use at least two streams;
// and work forked from one stream and joined back into it within each
// iteration (cudaEventRecord + cudaStreamWaitEvent both ways) runs in order
// across iterations too.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONOVERLAP_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONOVERLAP_H

#include "api/StreamRef.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <set>

namespace cuda_async_lint {

/// Whether two iterations of \p Loop could run at once without a wait: its
/// work (stream capture left out: captured work is recorded, not run) uses
/// at least two streams, counting an element of an array of streams chosen
/// per iteration as many and one with a constant index as one, the
/// per-thread default stream as one and the legacy default stream (which
/// synchronizes with every blocking stream) as none; and no stream of them
/// forks every other stream's work of the iteration from itself and joins
/// it back.
bool iterationsCanOverlap(const clang::Stmt *Loop, bool PerThread,
                          const clang::ASTContext &Ctx);

/// Whether the event records and stream waits that run in every iteration
/// of \p Loop order each of \p Streams after each other, within an
/// iteration or from one to the next ('cudaStreamWaitEvent(compute,
/// pushed[k])' at the top of the body for the push stream's record of
/// 'pushed[j]' at its end; every element of an array of events stands for
/// the array). Such streams need no host wait to join them.
bool eventsJoinStreams(const clang::Stmt *Loop,
                       const std::set<StreamRef> &Streams,
                       const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONOVERLAP_H
