//===- StoreSites.cpp - Where a unit stores and registers -----------------===//

#include "StoreSites.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/code/UserCodeVisitor.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// True if \p Init leaves a pointer (or every element of an array of
/// pointers) null.
bool isNullInitializer(const Expr *Init, ASTContext &Ctx) {
  Init = Init->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Init))
    Init = Default->getExpr()->IgnoreParenImpCasts();
  if (isa<ImplicitValueInitExpr>(Init))
    return true;
  if (const auto *List = dyn_cast<InitListExpr>(Init)) {
    for (const Expr *Element : List->inits())
      if (!isNullInitializer(Element, Ctx))
        return false;
    return !List->hasArrayFiller() ||
           isNullInitializer(List->getArrayFiller(), Ctx);
  }
  return Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

/// The field or global an escape of \p E lets others store into: a
/// summarized variable, or a summarized global array of pointers as a whole.
const ValueDecl *escapingVariable(const Expr *E) {
  if (const ValueDecl *D = summarizedVariable(E))
    return D;
  if (const FieldDecl *FD = userPointerArrayField(E))
    return FD;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return isSummarizedGlobal(VD) ? VD->getCanonicalDecl() : nullptr;
}

/// Finds every place the translation unit stores into a user pointer field
/// or global, or registers memory, with the function that does it.
class SiteFinder : public UserCodeVisitor<SiteFinder> {
public:
  SiteFinder(const SourceManager &SM, ProvenanceAnalysis::Sites &Out)
      : UserCodeVisitor(SM), Out(Out) {}

  bool TraverseConstructorInitializer(CXXCtorInitializer *Init) {
    if (const FieldDecl *FD = Init->getAnyMember()) {
      if (isSummarizedField(FD))
        storedBy(FD);
      // A member array of pointers initialized whole is not analysed.
      if (isSummarizedArrayField(FD) &&
          !isNullInitializer(Init->getInit(), FD->getASTContext()))
        Out.Escaped.insert(FD);
    }
    return RecursiveASTVisitor::TraverseConstructorInitializer(Init);
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const ValueDecl *D = summarizedVariable(BO->getLHS()))
        storedBy(D);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (Api && Api->Kind == ApiKind::Register && Current)
      Out.RegisterCalls.push_back({Current, Call});
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee) {
      const FunctionDecl *Canonical = Callee->getCanonicalDecl();
      if (Current && !isa<CXXOperatorCallExpr>(Call))
        Out.CallsTo[Canonical].push_back({Current, Call});
      else
        Out.NotOnlyCalled.insert(Canonical);
      if (const auto *Named =
              dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
        CalleeNames.insert(Named);
    }
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      // '&field' or '&global' as an argument: the function analysis records
      // what the call stores there (or Unknown).
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
          UO && UO->getOpcode() == UO_AddrOf)
        if (const ValueDecl *D = summarizedVariable(UO->getSubExpr())) {
          PassedToCall.insert(UO);
          storedBy(D);
        }
      // A field or global bound to a non-const reference parameter may be
      // stored into.
      if (bindsArgumentForWriting(Callee, I))
        if (const ValueDecl *D = escapingVariable(Arg))
          Out.Escaped.insert(D);
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // A function named as anything but a call's callee (its address taken,
    // a reference bound to it) may be called from where we cannot see.
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeNames.count(DRE))
        Out.NotOnlyCalled.insert(FD->getCanonicalDecl());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && !PassedToCall.count(UO))
      if (const ValueDecl *D = escapingVariable(UO->getSubExpr()))
        Out.Escaped.insert(D);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    SubscriptBases.insert(ASE->getBase()->IgnoreParens());
    return true;
  }

  /// A global array of pointers decayed to a pointer anywhere but a
  /// subscript ('memset(g, ...)', 'int **p = g') may be stored through.
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        !SubscriptBases.count(Cast))
      if (const ValueDecl *D = escapingVariable(Cast->getSubExpr()))
        Out.Escaped.insert(D);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit())
      if (const ValueDecl *D = escapingVariable(VD->getInit()))
        Out.Escaped.insert(D);
    // A global starts null (zero-initialized); any other initializer is
    // not analysed, and the global is unknown.
    if (isSummarizedGlobal(VD) && VD->getInit() &&
        !isNullInitializer(VD->getInit(), VD->getASTContext()))
      Out.Escaped.insert(VD->getCanonicalDecl());
    return true;
  }

  bool VisitInitListExpr(InitListExpr *List) {
    const RecordDecl *RD = List->getType()->getAsRecordDecl();
    if (!RD || List->isTransparent() || !List->isSemanticForm())
      return true;
    unsigned I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (isSummarizedField(FD))
        storedBy(FD);
      const Expr *Init = I < List->getNumInits() ? List->getInit(I) : nullptr;
      ++I;
      if (isSummarizedArrayField(FD) && Init &&
          !isNullInitializer(Init, FD->getASTContext()))
        Out.Escaped.insert(FD);
    }
    return true;
  }

private:
  void storedBy(const ValueDecl *D) {
    // A store outside any function (a global's initializer) is not
    // analysed: the variable is unknown.
    if (Current)
      Out.Stores[D].insert(Current);
    else
      Out.Escaped.insert(D);
  }

  ProvenanceAnalysis::Sites &Out;
  llvm::DenseSet<const UnaryOperator *> PassedToCall;
  llvm::DenseSet<const Expr *> SubscriptBases;
  llvm::DenseSet<const DeclRefExpr *> CalleeNames;
};

} // namespace

void findStoreSites(ASTContext &Ctx, ProvenanceAnalysis::Sites &Out) {
  SiteFinder Finder(Ctx.getSourceManager(), Out);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace cuda_async_lint
