//===- LoopCounters.cpp - Counters that start at 0 ------------------------===//

#include "LoopCounters.h"
#include "analysis/code/ObjectReferences.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace cuda_async_lint {

std::optional<std::pair<const VarDecl *, CounterTest>>
counterCondition(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    BinaryOperatorKind Op = BO->getOpcode();
    if (!BO->isComparisonOp())
      return std::nullopt;
    if (declRefVar(R) && !declRefVar(L)) { // 0 < i is i > 0.
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    const VarDecl *VD = declRefVar(L);
    std::optional<int64_t> K = Constant(R);
    if (!VD || !K)
      return std::nullopt;
    if (((Op == BO_GT || Op == BO_NE) && *K == 0) || (Op == BO_GE && *K == 1))
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
    if (((Op == BO_EQ || Op == BO_LE) && *K == 0) || (Op == BO_LT && *K == 1))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    if (((Op == BO_LT || Op == BO_NE) && *K > 0) || (Op == BO_LE && *K >= 0))
      return std::make_pair(VD, CounterTest::TrueAtStart);
    return std::nullopt;
  }
  if (const VarDecl *VD = declRefVar(Cond)) // if (i)
    if (VD->getType()->isIntegerType())
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
  return std::nullopt;
}

bool CounterFinder::VisitConditionalOperator(ConditionalOperator *CO) {
  return tested(CO->getCond());
}

bool CounterFinder::VisitVarDecl(VarDecl *VD) {
  // 'int i;' before 'for (i = 0; ...)': reading it before the assignment
  // would be undefined, so it is taken as starting at 0 too.
  if (VD->hasLocalStorage() && VD->getType()->isIntegerType() &&
      !isa<ParmVarDecl>(VD) && (!VD->getInit() || isZero(VD->getInit())))
    Candidates.insert(VD);
  return true;
}

bool CounterFinder::VisitBinaryOperator(BinaryOperator *BO) {
  if (const VarDecl *VD = declRefVar(BO->getLHS())) {
    if (BO->getOpcode() == BO_Assign && !isZero(BO->getRHS()))
      Other.insert(VD);
    else if (BO->isCompoundAssignmentOp() &&
             (BO->getOpcode() != BO_AddAssign || !isPositive(BO->getRHS())))
      Other.insert(VD);
  }
  return true;
}

bool CounterFinder::VisitUnaryOperator(UnaryOperator *UO) {
  if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
    if (UO->isDecrementOp() || UO->getOpcode() == UO_AddrOf)
      Other.insert(VD);
  return true;
}

void CounterFinder::finish() {
  for (const VarDecl *VD : Candidates)
    if (!Other.count(VD) && Tested.count(VD))
      Counters.insert(VD);
}

bool CounterFinder::isZero(const Expr *E) {
  const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return Int && Int->getValue() == 0;
}

bool CounterFinder::isPositive(const Expr *E) {
  const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return Int && Int->getValue().getZExtValue() > 0;
}

bool CounterFinder::tested(const Expr *Cond) {
  if (!Cond)
    return true;
  if (auto Counter = counterCondition(Cond, Ctx))
    Tested.insert(Counter->first);
  // 'i < n': a loop bound, for BranchFacts.
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()))
    if (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_NE)
      if (const VarDecl *VD = declRefVar(BO->getLHS()))
        Tested.insert(VD);
  return true;
}

} // namespace cuda_async_lint
