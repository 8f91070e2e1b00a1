//===- EscapeFinder.cpp - Locals the dataflow cannot follow ---------------===//

#include "EscapeFinder.h"
#include "HostProvenance.h"
#include "ProvenanceExpressions.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"

using namespace clang;

namespace cuda_async_lint::provenance {

namespace {

/// 'T **h = (T **)malloc(...)' or 'new T *[n]': a fresh table of pointers.
bool isTableAllocation(const VarDecl *VD) {
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->getInit() ||
      !VD->getType()->isPointerType() ||
      !VD->getType()->getPointeeType()->isPointerType())
    return false;
  const Expr *Init = VD->getInit()->IgnoreParenCasts();
  if (isa<CXXNewExpr>(Init))
    return true;
  const auto *Call = dyn_cast<CallExpr>(Init);
  const ApiSpec *Api = Call ? lookupApi(Call) : nullptr;
  return Api && Api->Kind == ApiKind::Allocate &&
         Api->Memory == MemoryKind::Pageable;
}

} // namespace

bool EscapeFinder::VisitDeclRefExpr(DeclRefExpr *DRE) {
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
    if (isSummarizedGlobal(VD))
      Globals.insert(VD->getCanonicalDecl());
    if (auto It = TableUses.find(VD); It != TableUses.end())
      ++It->second.first;
  }
  return true;
}

void EscapeFinder::tableUse(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
    if (auto It = TableUses.find(dyn_cast<VarDecl>(DRE->getDecl()));
        It != TableUses.end())
      ++It->second.second;
}

void EscapeFinder::finish() {
  for (const auto &[VD, Uses] : TableUses)
    if (Uses.first == Uses.second && !Escaped.count(VD))
      PointerTables.insert(VD);
}

bool EscapeFinder::VisitCXXNewExpr(CXXNewExpr *New) {
  Allocations.insert(Origin(static_cast<const Stmt *>(New)).getOpaqueValue());
  return true;
}

bool EscapeFinder::VisitCXXDeleteExpr(CXXDeleteExpr *Delete) {
  tableUse(Delete->getArgument());
  return true;
}

bool EscapeFinder::VisitCallExpr(CallExpr *Call) {
  for (const Expr *Arg : Call->arguments()) {
    if (const Expr *Operand = addressOfOperand(Arg))
      PassedToCall.insert(Operand);
    DirectUses.insert(Arg->IgnoreParens());
  }
  const ApiSpec *Api = lookupApi(Call);
  if (Api && Api->Kind == ApiKind::Release)
    if (const Expr *Ptr = Api->arg(Call, ArgRole::Ptr))
      tableUse(Ptr);
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
  tableUse(ASE->getBase());
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
  if (isTableAllocation(VD))
    TableUses.try_emplace(VD, 0, 0);
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
