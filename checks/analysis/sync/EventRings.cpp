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

const Expr *elementIndex(const Expr *E) {
  const auto *ASE =
      E ? dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return ASE ? ASE->getIdx()->IgnoreParenImpCasts() : nullptr;
}

std::set<const VarDecl *> elementIndexVariables(const Expr *E) {
  std::set<const VarDecl *> Out;
  const Expr *Index = elementIndex(E);
  if (!Index)
    return Out;
  llvm::SmallVector<const Stmt *, 8> Work{Index};
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

std::optional<RingIndex> ringIndexOf(const Expr *Element,
                                     const ASTContext &Ctx) {
  const auto *ASE =
      Element ? dyn_cast<ArraySubscriptExpr>(Element->IgnoreParenImpCasts())
              : nullptr;
  if (!ASE)
    return std::nullopt;
  const Expr *Idx = ASE->getIdx()->IgnoreParenImpCasts();
  RingIndex Ring;
  if (const auto *Rem = dyn_cast<BinaryOperator>(Idx);
      Rem && Rem->getOpcode() == BO_Rem) {
    std::optional<int64_t> N = constant(Rem->getRHS(), Ctx);
    if (!N || *N < 2)
      return std::nullopt;
    Ring.Modulus = *N;
    Idx = Rem->getLHS()->IgnoreParenImpCasts();
    // '(v + k) % N': another slot of the same ring, moved as v moves.
    if (const auto *Add = dyn_cast<BinaryOperator>(Idx);
        Add && Add->getOpcode() == BO_Add) {
      if (constant(Add->getRHS(), Ctx))
        Idx = Add->getLHS()->IgnoreParenImpCasts();
      else if (constant(Add->getLHS(), Ctx))
        Idx = Add->getRHS()->IgnoreParenImpCasts();
    }
  }
  Ring.Var = namedVariable(Idx);
  if (!Ring.Var || !Ring.Var->hasLocalStorage())
    return std::nullopt;
  return Ring;
}

std::optional<RingMove> ringMove(const Stmt *S, const RingIndex &Index,
                                 const ASTContext &Ctx) {
  const VarDecl *V = Index.Var;
  auto Move = [](int64_t Size, int64_t Step) -> std::optional<RingMove> {
    int64_t Slots = ((Step % Size) + Size) % Size;
    if (Size < 2 || Slots == 0)
      return std::nullopt;
    return RingMove{unsigned(Size), unsigned(Slots)};
  };
  if (Index.Modulus) {
    // 'a[v % N]' moves one slot with every 'v++'.
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementOp() && namedVariable(UO->getSubExpr()) == V)
      return Move(Index.Modulus, 1);
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (!BO || namedVariable(BO->getLHS()) != V)
      return std::nullopt;
    if (BO->getOpcode() == BO_AddAssign)
      if (std::optional<int64_t> C = constant(BO->getRHS(), Ctx))
        return Move(Index.Modulus, *C);
    if (BO->getOpcode() == BO_Assign)
      if (std::optional<int64_t> C = stepOf(BO->getRHS(), V, Ctx))
        return Move(Index.Modulus, *C);
    return std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || namedVariable(BO->getLHS()) != V)
    return std::nullopt;
  const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
  // v ^= 1: a ring of two.
  if (BO->getOpcode() == BO_XorAssign)
    return constant(RHS, Ctx) == 1 ? Move(2, 1) : std::nullopt;
  if (BO->getOpcode() != BO_Assign)
    return std::nullopt;
  // v = !v; v = 1 - v.
  if (const auto *Not = dyn_cast<UnaryOperator>(RHS))
    return Not->getOpcode() == UO_LNot && namedVariable(Not->getSubExpr()) == V
               ? Move(2, 1)
               : std::nullopt;
  const auto *Op = dyn_cast<BinaryOperator>(RHS);
  if (!Op)
    return std::nullopt;
  if (Op->getOpcode() == BO_Sub)
    return constant(Op->getLHS(), Ctx) == 1 && namedVariable(Op->getRHS()) == V
               ? Move(2, 1)
               : std::nullopt;
  // v = (v + c) % N, v = ++v % N.
  if (Op->getOpcode() != BO_Rem)
    return std::nullopt;
  std::optional<int64_t> N = constant(Op->getRHS(), Ctx);
  std::optional<int64_t> Step = stepOf(Op->getLHS(), V, Ctx);
  return N && Step ? Move(*N, *Step) : std::nullopt;
}

bool isRingAdvance(const Stmt *S, const VarDecl *V, const ASTContext &Ctx) {
  return ringMove(S, RingIndex{V, 0}, Ctx).has_value();
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

bool namesMovedOnSlot(const EventSlot &Slot, const Expr *Element,
                      const ASTContext &Ctx) {
  const Expr *Index = elementIndex(Element);
  if (!Index || !Slot.Index || elementIndexVariables(Element) != Slot.Deps)
    return false;
  // The same index expression, so the element one move on.
  llvm::FoldingSetNodeID Recorded, Waited;
  Slot.Index->Profile(Recorded, Ctx, /*Canonical=*/true);
  Index->Profile(Waited, Ctx, /*Canonical=*/true);
  return Recorded == Waited && movedOnce(Slot, Ctx);
}

} // namespace cuda_async_lint
