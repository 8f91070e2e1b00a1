//===- EventRings.cpp - Which element of an array of events ---------------===//

#include "EventRings.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

const VarDecl *namedVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

std::optional<int64_t> constant(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// 'v + c', 'c + v' or '++v' ('v++' leaves v for the assignment to undo):
/// how far it moves \p V.
std::optional<int64_t> stepOf(const Expr *E, const VarDecl *V,
                              const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_PreInc && namedVariable(UO->getSubExpr()) == V)
      return 1;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    if (namedVariable(BO->getLHS()) == V)
      return constant(BO->getRHS(), Ctx);
    if (namedVariable(BO->getRHS()) == V)
      return constant(BO->getLHS(), Ctx);
  }
  return std::nullopt;
}

bool inside(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  SourceRange O = Outer->getSourceRange(), I = Inner->getSourceRange();
  return O.isValid() && I.isValid() &&
         !SM.isBeforeInTranslationUnit(I.getBegin(), O.getBegin()) &&
         !SM.isBeforeInTranslationUnit(O.getEnd(), I.getEnd());
}

} // namespace

std::set<const VarDecl *> elementIndexVariables(const Expr *E) {
  std::set<const VarDecl *> Out;
  const auto *ASE =
      E ? dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) : nullptr;
  if (!ASE)
    return Out;
  llvm::SmallVector<const Stmt *, 8> Work{ASE->getIdx()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->hasLocalStorage())
        Out.insert(VD);
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
  return Out;
}

bool isRingAdvance(const Stmt *S, const VarDecl *V, const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || namedVariable(BO->getLHS()) != V)
    return false;
  const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
  // v ^= 1: a ring of two.
  if (BO->getOpcode() == BO_XorAssign)
    return constant(RHS, Ctx) == 1;
  if (BO->getOpcode() != BO_Assign)
    return false;
  // v = !v; v = 1 - v.
  if (const auto *Not = dyn_cast<UnaryOperator>(RHS))
    return Not->getOpcode() == UO_LNot && namedVariable(Not->getSubExpr()) == V;
  const auto *Op = dyn_cast<BinaryOperator>(RHS);
  if (!Op)
    return false;
  if (Op->getOpcode() == BO_Sub)
    return constant(Op->getLHS(), Ctx) == 1 && namedVariable(Op->getRHS()) == V;
  // v = (v + c) % N, v = ++v % N.
  if (Op->getOpcode() != BO_Rem)
    return false;
  std::optional<int64_t> N = constant(Op->getRHS(), Ctx);
  std::optional<int64_t> Step = stepOf(Op->getLHS(), V, Ctx);
  return N && *N >= 2 && Step && *Step % *N != 0;
}

bool movedOnce(const EventSlot &Slot, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *Advance : Slot.Writes) {
    if (llvm::none_of(Slot.Deps, [&](const VarDecl *V) {
          return isRingAdvance(Advance, V, Ctx);
        }))
      continue;
    return llvm::all_of(Slot.Writes, [&](const Stmt *W) {
      return W == Advance || inside(W, Advance, SM);
    });
  }
  return false;
}

} // namespace cuda_async_lint
