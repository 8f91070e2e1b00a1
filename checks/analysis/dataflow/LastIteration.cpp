//===- LastIteration.cpp --------------------------------------------------===//

#include "LastIteration.h"
#include "Loops.h"
#include "analysis/code/ObjectReferences.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The integer variable \p E names, if it names one.
const VarDecl *variable(const Expr *E) {
  const VarDecl *VD = declRefVar(E);
  return VD && VD->getType()->isIntegerType() ? VD : nullptr;
}

bool isZero(const Expr *E, const ASTContext &Ctx) {
  std::optional<int64_t> V = integerConstant(E, Ctx);
  return V && *V == 0;
}

bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// Whether anything in \p Body writes \p V.
bool writes(const Stmt *Body, const VarDecl *V) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool Found = false;
    bool names(const Expr *E) { return variable(E) == V; }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->isAssignmentOp() && names(BO->getLHS());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
               names(UO->getSubExpr());
      return !Found;
    }
  } F;
  F.V = V;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace

/// The counter of a loop 'for (V = 0; V < B; ++V)' and what its last value
/// is written as (B of 'V < B' less one, or of 'V <= B' itself): the
/// counter, the bound and whether the bound is inclusive.
struct LastIterations::CountingLoop {
  const VarDecl *Counter = nullptr;
  const Expr *Bound = nullptr;
  bool Inclusive = false;
};

namespace {

using CountingLoop = LastIterations::CountingLoop;

std::optional<CountingLoop> countingLoopOf(const Stmt *Loop,
                                           const ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getInit() || !For->getCond() || !For->getInc())
    return std::nullopt;
  CountingLoop L;
  // V = 0, int V = 0.
  if (const auto *DS = dyn_cast<DeclStmt>(For->getInit());
      DS && DS->isSingleDecl()) {
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (VD && VD->getInit() && VD->getType()->isIntegerType() &&
        isZero(VD->getInit(), Ctx))
      L.Counter = VD;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign && isZero(BO->getRHS(), Ctx)) {
    L.Counter = variable(BO->getLHS());
  }
  if (!L.Counter)
    return std::nullopt;
  // ++V, V++, V += 1.
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  bool Steps = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
    Steps = UO->isIncrementOp() && variable(UO->getSubExpr()) == L.Counter;
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
    if (std::optional<int64_t> K = integerConstant(CA->getRHS(), Ctx))
      Steps = CA->getOpcode() == BO_AddAssign && *K == 1 &&
              variable(CA->getLHS()) == L.Counter;
  const auto *Cond =
      dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Steps || !Cond ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) ||
      variable(Cond->getLHS()) != L.Counter ||
      writes(For->getBody(), L.Counter))
    return std::nullopt;
  L.Bound = Cond->getRHS();
  L.Inclusive = Cond->getOpcode() == BO_LE;
  return L;
}

/// Whether \p E is the last value \p L gives its counter.
bool isLastValue(const Expr *E, const CountingLoop &L, const ASTContext &Ctx) {
  std::optional<int64_t> Value = integerConstant(E, Ctx);
  std::optional<int64_t> Bound = integerConstant(L.Bound, Ctx);
  if (Value && Bound)
    return *Value == (L.Inclusive ? *Bound : *Bound - 1);
  if (L.Inclusive)
    return sameExpr(E, L.Bound, Ctx);
  // 'B - 1'.
  const auto *Sub = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  std::optional<int64_t> One = Sub && Sub->getOpcode() == BO_Sub
                                   ? integerConstant(Sub->getRHS(), Ctx)
                                   : std::nullopt;
  return One && *One == 1 && sameExpr(Sub->getLHS(), L.Bound, Ctx);
}

/// Whether \p Cond, or a conjunct of it, is 'V == last' (either way round).
bool testsLastValue(const Expr *Cond, const CountingLoop &L,
                    const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO)
    return false;
  if (BO->getOpcode() == BO_LAnd)
    return testsLastValue(BO->getLHS(), L, Ctx) ||
           testsLastValue(BO->getRHS(), L, Ctx);
  if (BO->getOpcode() != BO_EQ)
    return false;
  return (variable(BO->getLHS()) == L.Counter &&
          isLastValue(BO->getRHS(), L, Ctx)) ||
         (variable(BO->getRHS()) == L.Counter &&
          isLastValue(BO->getLHS(), L, Ctx));
}

} // namespace

LastIterations::LastIterations(const ASTContext &Ctx) : Ctx(Ctx) {}

LastIterations::~LastIterations() = default;

const LastIterations::CountingLoop *
LastIterations::countingLoop(const Stmt *Loop) {
  auto [It, New] = Loops.try_emplace(Loop);
  if (New)
    if (std::optional<CountingLoop> L = countingLoopOf(Loop, Ctx))
      It->second = std::make_unique<CountingLoop>(*L);
  return It->second.get();
}

bool LastIterations::runsOnlyInLastIteration(const Stmt *S, const Stmt *Loop,
                                             const FunctionDecl *FD,
                                             BodyParents &Parents) {
  // The ifs around S first: the loop is read only where one may test it.
  llvm::SmallVector<const IfStmt *, 4> Ifs;
  const Stmt *Child = S;
  for (const Stmt *Parent = Parents.parent(FD, S); Parent && Parent != Loop;
       Child = Parent, Parent = Parents.parent(FD, Parent))
    if (const auto *If = dyn_cast<IfStmt>(Parent); If && If->getThen() == Child)
      Ifs.push_back(If);
  if (Ifs.empty())
    return false;
  const CountingLoop *L = countingLoop(Loop);
  return L && llvm::any_of(Ifs, [&](const IfStmt *If) {
           return testsLastValue(If->getCond(), *L, Ctx);
         });
}

} // namespace cuda_async_lint
