//===- BranchFacts.cpp ----------------------------------------------------===//

#include "BranchFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Variables whose address is taken ('&x', a reference binding, a by-
/// reference lambda capture): calls may write them.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  std::set<const VarDecl *> Escaping;

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit())
      note(VD->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // A non-const reference parameter binds the argument itself.
    const FunctionDecl *FD = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const ParmVarDecl *P =
          FD && I < FD->getNumParams() ? FD->getParamDecl(I) : nullptr;
      if (!P || (P->getType()->isReferenceType() &&
                 !P->getType().getNonReferenceType().isConstQualified()))
        note(Call->getArg(I));
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    note(Call->getImplicitObjectArgument()); // Methods may change *this.
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Escaping.insert(VD);
    return true;
  }

private:
  void note(const Expr *E) {
    if (!E)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Escaping.insert(VD);
  }
};

} // namespace

BranchFacts::BranchFacts(const FunctionDecl *FD, ASTContext &Ctx) : Ctx(Ctx) {
  EscapeFinder Finder;
  Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  Escaping = std::move(Finder.Escaping);
}

bool BranchFacts::stableReads(const Expr *E,
                              std::vector<const VarDecl *> &Reads) const {
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (VD->getType().isConstQualified() && VD->getInit() &&
        !VD->getType()->isReferenceType())
      return true; // A constant.
    if (!VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
        VD->getType().isVolatileQualified() || Escaping.count(VD) ||
        !VD->getType()->isScalarType())
      return false;
    Reads.push_back(VD);
    return true;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return stableReads(Cast->getSubExpr(), Reads);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf && stableReads(UO->getSubExpr(), Reads);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           stableReads(BO->getLHS(), Reads) && stableReads(BO->getRHS(), Reads);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return stableReads(CO->getCond(), Reads) &&
           stableReads(CO->getTrueExpr(), Reads) &&
           stableReads(CO->getFalseExpr(), Reads);
  return false;
}

std::optional<BranchFact> BranchFacts::conditionFact(const Expr *Cond,
                                                     bool Outcome) const {
  Cond = Cond->IgnoreParenImpCasts();
  // '!c' and 'a != b' are facts about 'c' and 'a == b'.
  while (const auto *UO = dyn_cast<UnaryOperator>(Cond)) {
    if (UO->getOpcode() != UO_LNot)
      break;
    Cond = UO->getSubExpr()->IgnoreParenImpCasts();
    Outcome = !Outcome;
  }
  BranchFact F{BranchFact::Kind::Condition, {}, Outcome, {}};
  if (!stableReads(Cond, F.Reads) || F.Reads.empty())
    return std::nullopt;
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->getOpcode() == BO_NE) {
    F.Id.AddInteger(BO_EQ);
    BO->getLHS()->IgnoreParenImpCasts()->Profile(F.Id, Ctx, true);
    BO->getRHS()->IgnoreParenImpCasts()->Profile(F.Id, Ctx, true);
    F.Value = !Outcome;
    return F;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
      BO && BO->getOpcode() == BO_EQ) {
    F.Id.AddInteger(BO_EQ);
    BO->getLHS()->IgnoreParenImpCasts()->Profile(F.Id, Ctx, true);
    BO->getRHS()->IgnoreParenImpCasts()->Profile(F.Id, Ctx, true);
    return F;
  }
  Cond->Profile(F.Id, Ctx, /*Canonical=*/true);
  return F;
}

std::optional<BranchFact>
BranchFacts::boundFact(const Expr *Cond, bool Outcome,
                       const VarDecl *&Counter) const {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO || (BO->getOpcode() != BO_LT && BO->getOpcode() != BO_NE))
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
  Counter = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!Counter)
    return std::nullopt;
  // With the counter at 0: 'i < n' and 'i != n' hold exactly when n > 0
  // (for 'i != n', when n != 0, which a loop counting up from 0 reads as
  // n > 0).
  BranchFact F{BranchFact::Kind::PositiveBound, {}, Outcome, {}};
  const Expr *Bound = BO->getRHS()->IgnoreParenImpCasts();
  if (!stableReads(Bound, F.Reads) || F.Reads.empty())
    return std::nullopt;
  Bound->Profile(F.Id, Ctx, /*Canonical=*/true);
  return F;
}

bool BranchFacts::add(BranchFact F, BranchFactSet &Facts) {
  for (const BranchFact &Known : Facts)
    if (Known.K == F.K && Known.Id == F.Id)
      return Known.Value == F.Value;
  Facts.insert(llvm::upper_bound(Facts, F), std::move(F));
  return true;
}

void BranchFacts::written(const VarDecl *VD, BranchFactSet &Facts) {
  llvm::erase_if(Facts, [&](const BranchFact &F) {
    return llvm::is_contained(F.Reads, VD);
  });
}

void BranchFacts::intersect(BranchFactSet &Into, const BranchFactSet &From) {
  llvm::erase_if(
      Into, [&](const BranchFact &F) { return !llvm::is_contained(From, F); });
}

} // namespace cuda_async_lint
