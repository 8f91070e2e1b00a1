//===- FieldStores.cpp - Whether a callee repoints an object's fields -----===//

#include "FieldStores.h"
#include "StmtWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"

using namespace clang;

namespace cuda_async_lint {

static bool mayStoreFields(const FunctionDecl *FD, unsigned Param,
                           unsigned Depth);

/// Whether the use of the parameter at \p Ref leaves the fields as they
/// were: the fields are read, or written through; a scalar field written
/// (no pointer moves); or the object handed on to a function that leaves
/// them so.
static bool onlyReadsFields(const DeclRefExpr *Ref, ParentMap &PM,
                            unsigned Depth) {
  const Expr *E = Ref;
  const Stmt *P = PM.getParentIgnoreParens(E);
  // The object itself given to a call, as an argument of the same kind.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(P);
      Call && !isa<CXXOperatorCallExpr>(Call)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->IgnoreParens() == E)
        return Callee && !mayStoreFields(Callee, I, Depth + 1);
    return false;
  }
  // 't->f': the pointer loaded, then its member.
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
      Cast && Cast->getCastKind() == CK_LValueToRValue &&
      Ref->getType()->isPointerType()) {
    E = Cast;
    P = PM.getParentIgnoreParens(E);
  }
  bool Member = false;
  while (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
    if (ME->getBase()->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
      return false;
    Member = true;
    E = ME;
    P = PM.getParentIgnoreParens(E);
  }
  if (!Member || !P)
    return false;
  // A scalar field, whatever is done to it: no pointer field moves.
  QualType Field = E->getType();
  if (Field->isArithmeticType() || Field->isEnumeralType())
    return true;
  // The field's value read (and then written through, subscripted, ...).
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P))
    return Cast->getCastKind() == CK_LValueToRValue ||
           Cast->getCastKind() == CK_ArrayToPointerDecay;
  // 't.data[i]', an array field's element.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P))
    return ASE->getBase()->IgnoreParenImpCasts() == E;
  return false;
}

static bool mayStoreFields(const FunctionDecl *FD, unsigned Param,
                           unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD || Depth > 3 || !FD->hasBody(Def) || !Def ||
      Param >= Def->getNumParams() || Def->isVariadic())
    return true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual())
    return true;
  const ParmVarDecl *PD = Def->getParamDecl(Param);
  QualType T = PD->getType();
  if (!T->isReferenceType() && !T->isPointerType())
    return true;
  Stmt *Body = Def->getBody();
  ParentMap PM(Body);
  bool Stores = false;
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (Ref->getDecl() == PD && !onlyReadsFields(Ref, PM, Depth))
        Stores = true;
  });
  return Stores;
}

bool mayStoreFields(const FunctionDecl *FD, unsigned Param) {
  return mayStoreFields(FD, Param, 0);
}

} // namespace cuda_async_lint
