//===- IterationResults.h - What an iteration needs of its work -*- C++ -*-===//
//
// A wait inside a loop serializes the loop's iterations, unless the host
// needs this iteration's result before the next one may start: then the wait
// is the loop's purpose, not a mistake. Two shapes of real code need it:
//
//  - convergence: the loop's continuation (its condition, or a branch that
//    leaves it) reads a value derived from what the waited work produced on
//    the host (a device-to-host copy's destination, a library call's output),
//    through assignments ('l2 = *l2_h; l2 = sqrt(l2);') or a call that
//    writes one variable from another ('MPI_Allreduce(l2_h, &l2, ...)');
//  - host communication: after the wait, in the same iteration, the host
//    hands a buffer the waited work produced to a call outside CUDA's stream
//    order (MPI_Sendrecv of a halo a kernel just wrote).
//  - time stepping: the iteration exchanges two buffers the waited work both
//    takes ('tmp = u1; u1 = u2; u2 = tmp;'), so the next iteration's work
//    reads what this one's wrote; on several streams the wait is their join.
//  - measurement: after the wait the iteration reads the elapsed time
//    between two events it recorded (cudaEventElapsedTime): it times its
//    own work alone, as a bandwidth test times each pair of devices, and
//    overlapping the iterations would falsify what it measures.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONRESULTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONRESULTS_H

#include "api/AsyncOperation.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include <set>

namespace cuda_async_lint {

/// The variables whose memory the work \p Waited for and the wait \p Sync
/// itself (a blocking copy) write or may write: a device-to-host copy's
/// destination, the pointer arguments of a function given the stream, and,
/// unless \p HostSideOnly, of a kernel launch (device memory, which the host
/// reads only through a later copy or hands to communication calls).
std::set<const clang::VarDecl *>
producedVariables(const clang::CallExpr *Sync,
                  llvm::ArrayRef<const AsyncOperation *> Waited,
                  const clang::ASTContext &Ctx, bool HostSideOnly = false);

/// Whether the iteration of \p Loop needs the result of the work \p Sync
/// waits for (\p Waited) before it goes on: \p ControlVars (what the loop's
/// continuation reads) is derived from it in the loop's body, the host
/// communicates it after the wait, or the next iteration's work reads it.
bool iterationNeedsResult(const clang::CallExpr *Sync,
                          llvm::ArrayRef<const AsyncOperation *> Waited,
                          const clang::Stmt *Loop,
                          const std::set<const clang::VarDecl *> &ControlVars,
                          const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_ITERATIONRESULTS_H
