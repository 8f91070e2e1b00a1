//===- CallResults.cpp ----------------------------------------------------===//

#include "CallResults.h"
#include "LocalAliases.h"
#include "LocalWrites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

class ResultFinder : public LocalWrites<ResultFinder> {
public:
  CallResults Inits;

  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit())
      return true;
    if (VD->getType()->isReferenceType() &&
        !VD->getType()->getPointeeType().isConstQualified()) {
      if (const VarDecl *Target = localVar(VD->getInit()))
        Written.insert(Target);
      return true;
    }
    if (const auto *Call =
            dyn_cast<CallExpr>(VD->getInit()->IgnoreImplicit()->IgnoreParens()))
      Inits[VD] = Call;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const VarDecl *VD = localVar(Call->getArg(I));
      if (!VD)
        continue;
      // An unknown callee, or a non-const reference parameter, may write it.
      unsigned Offset =
          isa<CXXOperatorCallExpr>(Call) && FD && isa<CXXMethodDecl>(FD) ? 1
                                                                         : 0;
      if (!FD || I < Offset || I - Offset >= FD->getNumParams()) {
        if (!FD || !FD->isVariadic())
          Written.insert(VD);
        continue;
      }
      QualType T = FD->getParamDecl(I - Offset)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        Written.insert(VD);
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Written.insert(VD);
    return true;
  }
};

} // namespace

CallResults findCallResults(const FunctionDecl *FD) {
  ResultFinder Finder;
  if (FD->hasBody())
    Finder.TraverseStmt(FD->getBody());
  for (const VarDecl *VD : Finder.Written)
    Finder.Inits.erase(VD);
  return std::move(Finder.Inits);
}

const CallExpr *resultOf(const Expr *E, const CallResults &Results) {
  E = E->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return Call;
  if (const VarDecl *VD = localVar(E))
    return Results.lookup(VD);
  return nullptr;
}

} // namespace cuda_async_lint
