//===- EscapeFinder.cpp - Locals the dataflow cannot follow ---------------===//

#include "EscapeFinder.h"
#include "HostProvenance.h"
#include "ProvenanceExpressions.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"

using namespace clang;

namespace cuda_async_lint::provenance {

bool EscapeFinder::VisitDeclRefExpr(DeclRefExpr *DRE) {
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
    if (isSummarizedGlobal(VD))
      Globals.insert(VD->getCanonicalDecl());
  return true;
}

bool EscapeFinder::VisitCXXNewExpr(CXXNewExpr *New) {
  Allocations.insert(Origin(static_cast<const Stmt *>(New)).getOpaqueValue());
  return true;
}

bool EscapeFinder::VisitCallExpr(CallExpr *Call) {
  for (const Expr *Arg : Call->arguments()) {
    if (const Expr *Operand = addressOfOperand(Arg))
      PassedToCall.insert(Operand);
    DirectUses.insert(Arg->IgnoreParens());
  }
  const ApiSpec *Api = lookupApi(Call);
  if ((Api && Api->Kind == ApiKind::Allocate) ||
      isMakeSmartPointer(Call->getDirectCallee()))
    Allocations.insert(
        Origin(static_cast<const Stmt *>(Call)).getOpaqueValue());
  return true;
}

bool EscapeFinder::VisitUnaryOperator(UnaryOperator *UO) {
  if (UO->getOpcode() != UO_AddrOf)
    return true;
  const Expr *Operand = UO->getSubExpr()->IgnoreParens();
  if (PassedToCall.count(Operand))
    return true;
  if (const VarDecl *VD = asTrackedLocal(Operand))
    Escaped.insert(VD);
  if (const VarDecl *VD = asLocalObject(Operand))
    Escaped.insert(VD);
  return true;
}

bool EscapeFinder::VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
  DirectUses.insert(ASE->getBase()->IgnoreParens());
  return true;
}

bool EscapeFinder::VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
  if (Cast->getCastKind() == CK_ArrayToPointerDecay && !DirectUses.count(Cast))
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (isLocalObjectArray(VD))
          Escaped.insert(VD);
  return true;
}

bool EscapeFinder::VisitLambdaExpr(LambdaExpr *L) {
  for (const LambdaCapture &C : L->captures())
    if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
      if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
        Escaped.insert(VD);
  return true;
}

bool EscapeFinder::VisitVarDecl(VarDecl *VD) {
  if (VD->getType()->isReferenceType() && VD->getInit()) {
    if (const VarDecl *Target = asTrackedLocal(VD->getInit()))
      Escaped.insert(Target);
    if (const VarDecl *Target = asLocalObject(VD->getInit()))
      Escaped.insert(Target);
  }
  // 'cudaError_t err = cudaHostRegister(...)': err tells whether it worked.
  if (VD->hasLocalStorage() && VD->getInit())
    if (const CallExpr *Register =
            registerResult(VD->getInit(), RegisterResults))
      RegisterResults[VD] = Register;
  return true;
}

} // namespace cuda_async_lint::provenance
