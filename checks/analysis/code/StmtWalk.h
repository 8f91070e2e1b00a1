//===- StmtWalk.h - Every statement below a root, in written order -*- C++ -*-//
//
// The statements of a body as they are written, each before its children:
// every one (a lambda's body included), or leaving out the bodies of lambdas
// (they run when called, not where they are written).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_STMTWALK_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_STMTWALK_H

#include "clang/AST/ExprCXX.h"

namespace cuda_async_lint {

/// Calls \p F on \p Root and every statement below it.
template <typename Fn> void forEachStmt(const clang::Stmt *Root, Fn &&F) {
  if (!Root)
    return;
  F(Root);
  for (const clang::Stmt *Child : Root->children())
    forEachStmt(Child, F);
}

/// Calls \p F on \p Root and every statement below it but a lambda's.
template <typename Fn>
void forEachStmtOutsideLambdas(const clang::Stmt *Root, Fn &&F) {
  if (!Root || llvm::isa<clang::LambdaExpr>(Root))
    return;
  F(Root);
  for (const clang::Stmt *Child : Root->children())
    forEachStmtOutsideLambdas(Child, F);
}

/// Whether \p Root reads any of \p Vars outside a lambda's body.
template <typename VarSet>
bool mentionsAnyOf(const clang::Stmt *Root, const VarSet &Vars) {
  bool Mentions = false;
  forEachStmtOutsideLambdas(Root, [&](const clang::Stmt *S) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(S))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        Mentions |= Vars.count(VD) > 0;
  });
  return Mentions;
}

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_STMTWALK_H
