//===- ObjectReferences.cpp - Variables and objects in calls --------------===//

#include "ObjectReferences.h"

using namespace clang;

namespace cuda_async_lint {

const VarDecl *declRefVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const FieldDecl *thisMember(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

const Decl *calledObject(const CXXMemberCallExpr *Call,
                         const FunctionDecl *Caller) {
  const Expr *Object = Call->getImplicitObjectArgument();
  if (!Object)
    return nullptr;
  Object = Object->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Object))
    return Caller;
  return declRefVar(Object);
}

const CXXMethodDecl *calledMethod(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || !MD->isVirtual())
    return MD;
  return MD->getDevirtualizedMethod(Call->getImplicitObjectArgument(),
                                    /*IsAppleKext=*/false);
}

const Decl *objectArgument(const Expr *Arg, const FunctionDecl *Caller) {
  Arg = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Arg))
    if (UO->getOpcode() == UO_AddrOf)
      Arg = UO->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Arg))
    return Caller;
  const VarDecl *VD = declRefVar(Arg);
  if (!VD)
    return nullptr;
  QualType T = VD->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->isRecordType() ? VD : nullptr;
}

} // namespace cuda_async_lint
