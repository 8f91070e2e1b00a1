//===- BufferSwaps.cpp ----------------------------------------------------===//

#include "BufferSwaps.h"
#include "ObjectReferences.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// 'L = R' as its two sides.
std::pair<const Expr *, const Expr *> assignment(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S))
    if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
        BO && BO->getOpcode() == BO_Assign)
      return {BO->getLHS(), BO->getRHS()};
  return {nullptr, nullptr};
}

/// 'T tmp = A;' or 'tmp = A;': the temporary and A.
std::pair<const VarDecl *, const Expr *> saved(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    const auto *VD =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (VD && VD->hasLocalStorage() && VD->getInit())
      return {VD, VD->getInit()};
    return {nullptr, nullptr};
  }
  auto [L, R] = assignment(S);
  return {L ? declRefVar(L) : nullptr, R};
}

class SwapFinder : public RecursiveASTVisitor<SwapFinder> {
public:
  std::vector<SwappedPair> Pairs;

  void add(const Expr *A, const Expr *B) {
    const VarDecl *VA = baseVariable(A), *VB = baseVariable(B);
    if (VA && VB && VA != VB)
      Pairs.push_back({VA, VB});
  }

  // 'tmp = a; a = b; b = tmp;' as three statements in a row.
  bool VisitCompoundStmt(CompoundStmt *CS) {
    std::vector<const Stmt *> Body(CS->body_begin(), CS->body_end());
    for (size_t I = 0; I + 2 < Body.size(); ++I) {
      auto [Tmp, A] = saved(Body[I]);
      auto [A2, B] = assignment(Body[I + 1]);
      auto [B2, Restored] = assignment(Body[I + 2]);
      if (!Tmp || !A || !A2 || !B2 || declRefVar(Restored) != Tmp)
        continue;
      if (baseVariable(A) == baseVariable(A2) &&
          baseVariable(B) == baseVariable(B2))
        add(A, B);
    }
    return true;
  }

  // 'std::swap(a, b)', or any 'swap' of two arguments.
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->getIdentifier() && FD->getName() == "swap" &&
        Call->getNumArgs() == 2)
      add(Call->getArg(0), Call->getArg(1));
    return true;
  }
};

} // namespace

std::vector<SwappedPair> swappedVariables(const Stmt *Body) {
  SwapFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Pairs;
}

} // namespace cuda_async_lint
