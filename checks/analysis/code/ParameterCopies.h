//===- ParameterCopies.h - Helpers that copy their arguments ----*- C++ -*-===//
//
// A function of the translation unit that hands a pointer parameter to an
// asynchronous copy as its host side ('void upload(float *d, const float
// *h, ...) { cudaMemcpyAsync(d, h, ...); }'). Its caller's argument is what
// the copy stages: where the caller passes pageable memory, the call is
// where the copy is staged and synchronous, whatever other callers pass.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERCOPIES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERCOPIES_H

#include "api/CudaApiCatalog.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <vector>

namespace cuda_async_lint {

/// An asynchronous copy in a function's body whose host side is what
/// parameter Param points to (the parameter itself, or it plus an offset).
struct ParameterCopy {
  unsigned Param;
  const clang::CallExpr *Copy;
  /// The host side: the destination (device to host) or the source.
  HostSide Side;
  /// The function whose body holds the copy: this one, or a function of
  /// the unit it hands the parameter to ('loadData(p)' calls 'upload(p)').
  const clang::FunctionDecl *In;
  /// Where the function hands the parameter on, when \p In is another:
  /// the call and its argument.
  const clang::CallExpr *Via = nullptr;
  const clang::Expr *ViaArg = nullptr;
};

/// The copies of \p FD (a function with a body in user code of this
/// translation unit) on what its pointer parameters point to (directly, or
/// through a local pointer initialized from one and never reassigned),
/// written in its own body, or in the body of a function of the unit it
/// hands the parameter to, where they run whenever the function copies at
/// all: not under a branch ('if (pinned) cudaMemcpyAsync(...)' may not copy
/// at all); a loop copying chunks of it copies whenever it runs.
std::vector<ParameterCopy> parameterCopies(const clang::FunctionDecl *FD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERCOPIES_H
