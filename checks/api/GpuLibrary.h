//===- GpuLibrary.h - Work GPU libraries enqueue on streams -----*- C++ -*-===//
//
// cuBLAS, cuDNN, cuFFT, NCCL and the like enqueue their work on CUDA streams
// like a kernel launch does: on the stream a handle was bound to
// (cublasSetStream(h, s); cublasSgemm(h, ...)), or on the stream a call is
// given (ncclAllReduce(..., comm, s)), or on the stream its execution policy
// names (thrust::sort(thrust::cuda::par.on(s), ...)). The table is
// GpuLibraryApis.def.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_GPULIBRARY_H
#define CUDA_ASYNC_LINT_API_GPULIBRARY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <map>
#include <optional>

namespace cuda_async_lint {

/// A library handle bound to a stream: cublasSetStream(Handle, Stream).
struct StreamBinding {
  const clang::Expr *Handle;
  const clang::Expr *Stream;
};

/// The binding \p Call makes, if it calls a library's stream setter.
std::optional<StreamBinding> streamBinding(const clang::CallExpr *Call);

/// What a library handle expression names: 'h', 'handles' for
/// 'handles[i]', the field for 'this->h' or 'ctx.h'; null otherwise.
const clang::ValueDecl *handleDecl(const clang::Expr *Handle);

/// The streams library handles are bound to where a call is made, by the
/// declaration handleDecl gives.
using HandleStreams = std::map<const clang::ValueDecl *, const clang::Expr *>;

/// Records the binding \p Call makes, if it calls a stream setter; true if
/// it does.
bool recordBinding(const clang::CallExpr *Call, HandleStreams &Bound);

/// The handle argument of \p Call, if it calls a library function that
/// enqueues work on the stream its handle is bound to (not a setter, nor a
/// configuration call).
const clang::Expr *libraryWorkHandle(const clang::CallExpr *Call,
                                     const clang::ASTContext &Ctx);

/// The stream argument of \p Call, if it calls a library function that
/// takes the stream it enqueues its work on, as a parameter or in its
/// execution policy ('thrust::sort(thrust::cuda::par.on(s), ...)').
const clang::Expr *libraryWorkStream(const clang::CallExpr *Call,
                                     const clang::ASTContext &Ctx);

/// The stream \p Call waits for before it returns, if it calls a library
/// algorithm that synchronizes the stream its policy names (Thrust's,
/// except with a _nosync policy): its own work and all earlier work on that
/// stream are done when it returns.
const clang::Expr *libraryWaitStream(const clang::CallExpr *Call);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_GPULIBRARY_H
