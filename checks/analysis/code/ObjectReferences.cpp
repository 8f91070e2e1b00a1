//===- ObjectReferences.cpp - Variables and objects in calls --------------===//

#include "ObjectReferences.h"
#include "api/CudaApiCatalog.h"

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

const Expr *pointerBase(const Expr *E) {
  const Expr *Base = E->IgnoreParenCasts();
  while (true) {
    if (const auto *BO = dyn_cast<BinaryOperator>(Base);
        BO && BO->isAdditiveOp())
      Base = (BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                       : BO->getRHS())
                 ->IgnoreParenCasts();
    else if (const auto *UO = dyn_cast<UnaryOperator>(Base);
             UO && UO->getOpcode() == UO_AddrOf &&
             isa<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens()))
      Base = cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())
                 ->getBase()
                 ->IgnoreParenCasts();
    else
      break;
  }
  return Base;
}

const VarDecl *baseVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const Expr *Operand = addressOfOperand(E))
      E = Operand;
    else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
      E = Sub->getBase();
    else if (const auto *Bin = dyn_cast<BinaryOperator>(E);
             Bin && Bin->isAdditiveOp())
      E = Bin->getLHS()->getType()->isPointerType() ? Bin->getLHS()
                                                    : Bin->getRHS();
    else if (const auto *Un = dyn_cast<UnaryOperator>(E);
             Un && Un->getOpcode() == UO_Deref)
      E = Un->getSubExpr();
    else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
      E = Member->getImplicitObjectArgument();
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    else
      return nullptr;
  }
  return nullptr;
}

std::set<const VarDecl *> pointerArguments(const CallExpr *Call) {
  std::set<const VarDecl *> Vars;
  for (const Expr *Arg : Call->arguments())
    if (Arg->getType()->isPointerType())
      if (const VarDecl *VD = baseVariable(Arg))
        Vars.insert(VD);
  return Vars;
}

} // namespace cuda_async_lint
