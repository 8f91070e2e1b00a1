//===- CallResults.h - Locals that hold one call's result -------*- C++ -*-===//
//
// 'cudaError_t e = cudaMemcpyAsync(...); if (e != cudaSuccess) ...', as
// error-checking macros expand: a test of e is a test of that call's
// result, while e keeps its first value.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_CALLRESULTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_CALLRESULTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_async_lint {

/// Each local of \p FD initialized with a call's result and never written,
/// incremented, bound to a non-const reference or given by address after.
using CallResults =
    llvm::DenseMap<const clang::VarDecl *, const clang::CallExpr *>;
CallResults findCallResults(const clang::FunctionDecl *FD);

/// The call whose result \p E is: the call itself, or a local of \p Results.
const clang::CallExpr *resultOf(const clang::Expr *E,
                                const CallResults &Results);

} // namespace cuda_async_lint

#endif
