//===- UserCodeVisitor.h - The user's code, function by function -*- C++ -*-=//
//
// A RecursiveASTVisitor over what runs of the user's code in a translation
// unit: not the C++ library's or the CUDA headers' declarations (they touch
// only their own types and variables), not uninstantiated templates (their
// instantiations run, and are visited), and it knows the function or lambda
// whose body it is in, for the indexes that say which function stores or
// writes what.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_USERCODEVISITOR_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_USERCODEVISITOR_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_async_lint {

template <typename Derived>
class UserCodeVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  explicit UserCodeVisitor(const clang::SourceManager &SM) : SM(SM) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(clang::Decl *D) {
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) &&
        SM.isInSystemHeader(D->getLocation()))
      return true;
    auto *FD = llvm::dyn_cast_or_null<clang::FunctionDecl>(D);
    if (FD && FD->isDependentContext())
      return true;
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(D);
    const clang::FunctionDecl *Outer = Current;
    Current = FD;
    bool Result = Base::TraverseDecl(D);
    Current = Outer;
    return Result;
  }

  bool TraverseLambdaExpr(clang::LambdaExpr *L) {
    const clang::FunctionDecl *Outer = Current;
    Current = L->getCallOperator();
    bool Result = Base::TraverseLambdaExpr(L);
    Current = Outer;
    return Result;
  }

protected:
  const clang::SourceManager &SM;
  /// The function (or lambda's call operator) whose body is being visited;
  /// null outside any (a global's initializer).
  const clang::FunctionDecl *Current = nullptr;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_USERCODEVISITOR_H
