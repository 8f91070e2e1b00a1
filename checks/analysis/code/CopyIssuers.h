//===- CopyIssuers.h - Functions that issue async copies --------*- C++ -*-===//
//
// Whether calling a function of the translation unit issues an asynchronous
// copy: itself, or through the functions of the unit it calls. A loop that
// calls such a helper issues transfers as surely as one that calls
// cudaMemcpyAsync itself.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_COPYISSUERS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_COPYISSUERS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_async_lint {

/// Answers, once per function, whether it issues an async copy. Functions
/// without a body here, or in system headers, do not (as far as this unit
/// can tell); a cycle of calls is answered from its other paths.
class CopyIssuers {
public:
  bool issuesCopies(const clang::FunctionDecl *FD);
  void clear() { Known.clear(); }

private:
  bool scan(const clang::Stmt *S);
  llvm::DenseMap<const clang::FunctionDecl *, bool> Known;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_COPYISSUERS_H
