//===- LocalAliases.h - Pointers that keep their first value ----*- C++ -*-===//
//
// A local pointer initialized once and never written again names what its
// initializer names; a range-for's variable names its range's elements.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_LOCALALIASES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_LOCALALIASES_H

#include "clang/AST/Decl.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cuda_async_lint {

struct LocalAliases {
  /// Each never-rewritten local pointer and its initializer.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> Aliases;
  /// The loop variable of each range-based for loop.
  llvm::DenseMap<const clang::VarDecl *, const clang::CXXForRangeStmt *>
      RangeLoops;
};

/// The local variable \p E names, if it names one.
const clang::VarDecl *localVar(const clang::Expr *E);

LocalAliases findLocalAliases(const clang::FunctionDecl *FD);

/// The parameter \p E names once \p Peel has taken what it points into
/// ('h + n' to 'h'), following local aliases ('buffer' of 'unsigned char
/// *buffer = (unsigned char *)src' is 'src', peeled again); null if none.
const clang::ParmVarDecl *parameterThroughAliases(
    const clang::Expr *E, const LocalAliases &Local,
    llvm::function_ref<const clang::Expr *(const clang::Expr *)> Peel);

} // namespace cuda_async_lint

#endif
