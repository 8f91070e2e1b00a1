//===- AsyncOperation.h - Work a call enqueues on a stream ------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_API_ASYNCOPERATION_H
#define CUDA_ASYNC_LINT_API_ASYNCOPERATION_H

#include "GpuLibrary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace cuda_async_lint {

/// A call that enqueues work on a stream and returns before it is done: an
/// async copy or memset (a transfer), or a kernel launch (<<<...>>>,
/// cudaLaunchKernel, cuLaunchKernel, ...).
struct AsyncOperation {
  const clang::CallExpr *Call;
  bool IsTransfer;
  /// The stream argument as written; null when omitted (the legacy default
  /// stream, as in a <<<grid, block>>> launch).
  const clang::Expr *Stream;

  /// One operation is one call.
  bool operator<(const AsyncOperation &O) const { return Call < O.Call; }
  bool operator==(const AsyncOperation &O) const { return Call == O.Call; }
};

/// The stream argument of \p Op as the code writes it, for what the checks
/// say of it: null when omitted (a defaulted argument, '<<<g, b>>>'), and
/// without the parentheses and conversions a macro puts around it
/// ('hipLaunchKernelGGL(k, g, b, 0, s, ...)' names 's').
const clang::Expr *writtenStream(const AsyncOperation &Op);

/// The async operation \p S is, if it is one. Launches whose stream is in a
/// configuration struct (cudaLaunchKernelEx) are not: their stream is not
/// known.
std::optional<AsyncOperation> asyncOperation(const clang::Stmt *S);

/// A function whose body the analysis cannot see: defined in another
/// translation unit, and not a library function of a system header (those
/// do not touch CUDA streams) nor a catalogued CUDA call.
bool isOpaqueFunction(const clang::FunctionDecl *FD,
                      const clang::ASTContext &Ctx);

/// The work \p S enqueues on a stream, as its caller sees it: an async
/// operation, a call of an opaque function given exactly one stream
/// ('MonteCarloGPU(&plan[i], streams[i])', a project's launcher), or a GPU
/// library's work (GpuLibrary.h): on the stream it is given
/// ('ncclAllReduce(..., s)'), or on the one \p Bound says its handle is
/// bound to ('cublasSgemm(h, ...)'). None of these is a transfer: what it
/// touches is not known.
std::optional<AsyncOperation> streamWork(const clang::Stmt *S,
                                         const clang::ASTContext &Ctx,
                                         const HandleStreams *Bound = nullptr);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_ASYNCOPERATION_H
