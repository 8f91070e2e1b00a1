//===- StreamJoins.h - A wait that holds back no overlap --------*- C++ -*-===//
//
// A host wait inside a loop is a serialization only if it holds back work
// that could have run beside the work it waits for. Where the work the host
// issues next depends on the waited work from another stream (a reduction
// over devices that sums on each device's stream, waits, and copies the
// partial sums across: ARGOT's calc_GH_sum), the wait is the streams' join:
// moving it after the loop would race, and an event in its place would keep
// the same order on the GPU. Where the next work is on the waited work's
// own stream, or another wait waits for it all, nothing is held back.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H

#include "api/AsyncOperation.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

namespace cuda_async_lint {

/// Whether \p Sync, waiting for \p Waited, holds back no work of \p Loop
/// that could have run beside the waited work. It follows what the host
/// issues once the wait returns, in order (the rest of the iteration, then
/// the next one up to the wait):
///  - work on a stream not certainly the same as a waited operation's that
///    takes memory it took (one of them writing it; into the next
///    iteration, reading what it wrote) depends on it: the wait is the join
///    of the two streams, and an event in its place would keep the same
///    order on the GPU (ARGOT's reduction over devices, TIGRE's staging of
///    a slice through a host buffer from one device's stream to another's);
///  - another host wait of the body waits for it all anyway;
///  - work on the stream of every waited operation runs after it anyway,
///    and the search goes on;
///  - any other work could have run beside it: the wait serializes (shoc's
///    S3D kernels on 's1' after a wait for 'gr_base' on 's2').
/// What the loop's counter indexes is, in the next iteration, another
/// object ('s[i]', 'd[i]'); what the counter of a loop around an operation
/// but not around the wait indexes is any element ('d_u[dev]' of a loop
/// over the devices); a stream sync waits for the work on its own stream
/// even where the iteration analysis takes an earlier wait of another
/// element of the array for it. Work the rest of the pass cannot run (the
/// other arm of an if, 'i > 0' after 'i == 0') is not held back.
bool holdsBackNoOverlap(const clang::CallExpr *Sync,
                        llvm::ArrayRef<const AsyncOperation *> Waited,
                        const clang::Stmt *Loop, const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_STREAMJOINS_H
