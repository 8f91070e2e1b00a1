//===- ParameterUses.h - Pointer parameters the host touches ----*- C++ -*-===//
//
// A call that hands a buffer to a function of the translation unit touches
// it on the host only if that function does: a helper that only enqueues an
// async copy of it, or launches a kernel on it, leaves it to the stream
// ('do_run(stream, ..., h_price)' issuing 'cudaMemcpyAsync(h_price, ...,
// stream)'), and the call is no host access of its own.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERUSES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERUSES_H

#include "clang/AST/Decl.h"

namespace cuda_async_lint {

/// Whether a call of \p Callee may touch, on the host, the memory its
/// parameter \p Param points to: true unless \p Callee has a body in user
/// code of this translation unit and every use of the parameter there is
/// an argument of an asynchronous copy or memset, of a kernel launch, or of
/// another such call of a function that does not touch it either.
bool mayTouchOnHost(const clang::FunctionDecl *Callee, unsigned Param);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERUSES_H
