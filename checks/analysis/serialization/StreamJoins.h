//===- StreamJoins.h - A wait that orders dependent streams -----*- C++ -*-===//
//
// A host wait inside a loop is a serialization only if the work after it
// could have run beside the work before it. Where work on one stream and
// work on another, certainly distinct, stream take the same buffer, the
// wait orders them: a reduction over devices sums on each device's stream,
// waits, and copies the partial sums across on the other streams (ARGOT's
// calc_GH_sum). Moving the wait after the loop would race; where the host
// issues the dependent work first, an event would keep the same order on
// the GPU: no overlap is lost, only the host's launch latency.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H

#include "api/AsyncOperation.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

namespace cuda_async_lint {

/// Whether \p Sync, waiting for \p Waited, joins streams that share memory
/// in \p Loop: the first operation the host issues after the wait (the
/// next one written in the iteration, or the next iteration's first) runs
/// on another stream than a waited operation and takes a buffer it took:
///  - in the same iteration, one of the two writing it (a copy's or
///    memset's destination, a kernel's pointer to non-const): the wait
///    separates two phases of one step;
///  - in the next iteration, reading what a waited copy or memset wrote:
///    the next step consumes this one's result.
/// Work the host issues after the wait that depends on nothing it waited
/// for could have overlapped with it (an event before the dependent work
/// would let it): that wait is still a serialization. The streams must be
/// certainly distinct (AccessPaths.h) and not already joined by the body's
/// events. Work on one stream, or an array's element chosen per iteration
/// ('s[i % 2]', the pattern the check exists for), makes no join.
bool joinsDependentStreams(const clang::CallExpr *Sync,
                           llvm::ArrayRef<const AsyncOperation *> Waited,
                           const clang::Stmt *Loop,
                           const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H
