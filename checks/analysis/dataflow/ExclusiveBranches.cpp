//===- ExclusiveBranches.cpp ----------------------------------------------===//

#include "ExclusiveBranches.h"
#include "Loops.h"
#include "analysis/code/StmtWalk.h"
#include "api/CudaApiCatalog.h"
#include <limits>
#include <map>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// 'Var Op K': what a condition says of one integer variable.
struct Comparison {
  const VarDecl *Var;
  BinaryOperatorKind Op;
  int64_t K;
};

const VarDecl *integerVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isIntegralOrEnumerationType() ||
      VD->getType().isVolatileQualified() || VD->getType()->isReferenceType())
    return nullptr;
  return VD;
}

BinaryOperatorKind negated(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_EQ:
    return BO_NE;
  case BO_NE:
    return BO_EQ;
  case BO_LT:
    return BO_GE;
  case BO_GE:
    return BO_LT;
  case BO_GT:
    return BO_LE;
  default: // BO_LE
    return BO_GT;
  }
}

/// \p Cond as one comparison of a variable with a constant: 'i > 0',
/// '0 == i', '!i' (i == 0), 'i' (i != 0).
std::optional<Comparison> comparison(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot)
    if (const VarDecl *V = integerVariable(UO->getSubExpr()))
      return Comparison{V, BO_EQ, 0};
  if (const VarDecl *V = integerVariable(Cond))
    return Comparison{V, BO_NE, 0};
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (!BO || !BO->isComparisonOp() || BO->isCommaOp() ||
      BO->getOpcode() == BO_Cmp)
    return std::nullopt;
  if (const VarDecl *V = integerVariable(BO->getLHS()))
    if (std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx))
      return Comparison{V, BO->getOpcode(), *K};
  if (const VarDecl *V = integerVariable(BO->getRHS()))
    if (std::optional<int64_t> K = integerConstant(BO->getLHS(), Ctx))
      return Comparison{V, BinaryOperator::reverseComparisonOp(BO->getOpcode()),
                        *K};
  return std::nullopt;
}

/// What holds where \p Cond is \p Outcome: its comparisons joined by '&&'
/// (or '&' of truth values) when true, by '||' when false.
void comparisons(const Expr *Cond, bool Outcome, const ASTContext &Ctx,
                 std::vector<Comparison> &Out) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    bool Joins = Outcome ? BO->getOpcode() == BO_LAnd ||
                               (BO->getOpcode() == BO_And &&
                                comparison(BO->getLHS(), Ctx) &&
                                comparison(BO->getRHS(), Ctx))
                         : BO->getOpcode() == BO_LOr;
    if (Joins) {
      comparisons(BO->getLHS(), Outcome, Ctx, Out);
      comparisons(BO->getRHS(), Outcome, Ctx, Out);
      return;
    }
  }
  if (std::optional<Comparison> C = comparison(Cond, Ctx)) {
    if (!Outcome)
      C->Op = negated(C->Op);
    Out.push_back(*C);
  }
}

/// Whether some value satisfies every comparison of \p Cs (all of one
/// variable).
bool satisfiable(const std::vector<Comparison> &Cs) {
  int64_t Lo = std::numeric_limits<int64_t>::min();
  int64_t Hi = std::numeric_limits<int64_t>::max();
  std::set<int64_t> Not;
  for (const Comparison &C : Cs) {
    switch (C.Op) {
    case BO_EQ:
      Lo = std::max(Lo, C.K);
      Hi = std::min(Hi, C.K);
      break;
    case BO_NE:
      Not.insert(C.K);
      break;
    case BO_LT:
      if (C.K == std::numeric_limits<int64_t>::min())
        return false;
      Hi = std::min(Hi, C.K - 1);
      break;
    case BO_LE:
      Hi = std::min(Hi, C.K);
      break;
    case BO_GT:
      if (C.K == std::numeric_limits<int64_t>::max())
        return false;
      Lo = std::max(Lo, C.K + 1);
      break;
    default: // BO_GE
      Lo = std::max(Lo, C.K);
      break;
    }
  }
  return Lo < Hi || (Lo == Hi && !Not.count(Lo));
}

} // namespace

ExclusiveBranches::ExclusiveBranches(const Stmt *Body, const ASTContext &Ctx)
    : Ctx(Ctx) {
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S))
      Ifs.push_back(If);
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO &&
             (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf))
      Target = UO->getSubExpr();
    if (Target)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Written.insert(VD);
  });
}

bool ExclusiveBranches::exclusive(const Stmt *A, const Stmt *B) const {
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<const VarDecl *, std::vector<Comparison>> Known;
  for (const IfStmt *If : Ifs) {
    const Stmt *Then = If->getThen(), *Else = If->getElse();
    bool AThen = isWrittenWithin(A, Then, SM),
         BThen = isWrittenWithin(B, Then, SM);
    bool AElse = Else && isWrittenWithin(A, Else, SM);
    bool BElse = Else && isWrittenWithin(B, Else, SM);
    if ((AThen && BElse) || (AElse && BThen))
      return true;
    // What each statement's branch says; one condition is read once.
    std::vector<Comparison> Said;
    if (AThen || BThen)
      comparisons(If->getCond(), true, Ctx, Said);
    if (AElse || BElse)
      comparisons(If->getCond(), false, Ctx, Said);
    for (const Comparison &C : Said)
      if (!Written.count(C.Var))
        Known[C.Var].push_back(C);
  }
  return llvm::any_of(
      Known, [](const auto &VarSaid) { return !satisfiable(VarSaid.second); });
}

} // namespace cuda_async_lint
