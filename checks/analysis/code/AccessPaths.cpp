//===- AccessPaths.cpp ----------------------------------------------------===//

#include "AccessPaths.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

std::string idOf(const void *P) {
  return std::to_string(reinterpret_cast<uintptr_t>(P));
}

bool append(std::string &Key, const Expr *E, const ASTContext &Ctx);

/// \p E, an index or an offset, as a key: constants, the objects append
/// names, and the arithmetic between them ('(dev + 1) * nStream + 1');
/// false for anything else (a call).
bool appendArithmetic(std::string &Key, const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (std::optional<int64_t> C = integerConstant(E, Ctx)) {
    Key += std::to_string(*C);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isAdditiveOp() || BO->isMultiplicativeOp())) {
    Key += "(";
    if (!appendArithmetic(Key, BO->getLHS(), Ctx))
      return false;
    Key += BO->getOpcodeStr().str();
    if (!appendArithmetic(Key, BO->getRHS(), Ctx))
      return false;
    Key += ")";
    return true;
  }
  return append(Key, E, Ctx);
}

bool append(std::string &Key, const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType())
      return false;
    Key += "@" + idOf(VD);
    return true;
  }
  if (isa<CXXThisExpr>(E)) {
    Key += "this";
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    // 'strm[0]' in a member function is 'this->strm[0]'.
    if (!FD || !append(Key, ME->getBase(), Ctx))
      return false;
    Key += "." + idOf(FD);
    return true;
  }
  const Expr *Base = nullptr, *Index = nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    Base = ASE->getBase();
    Index = ASE->getIdx();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref) {
    Base = UO->getSubExpr();
  } else {
    return false;
  }
  if (!append(Key, Base, Ctx))
    return false;
  Key += "[";
  if (!Index)
    Key += "0";
  else if (!appendArithmetic(Key, Index, Ctx))
    return false;
  Key += "]";
  return true;
}

} // namespace

std::optional<AccessPath> accessPath(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  AccessPath P;
  if (!append(P.Key, E, Ctx))
    return std::nullopt;
  return P;
}

std::optional<BufferPath> bufferPath(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenCasts();
  // '&p[i]' and 'p + i' point into p at an offset; '&x' is x's own memory.
  const Expr *Base = E, *Offset = nullptr;
  if (const Expr *Operand = addressOfOperand(E)) {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(Operand->IgnoreParenImpCasts());
    if (!ASE ||
        !ASE->getBase()->IgnoreParenImpCasts()->getType()->isPointerType()) {
      std::optional<AccessPath> Whole = accessPath(Operand, Ctx);
      if (!Whole)
        return std::nullopt;
      return BufferPath{std::move(*Whole), std::nullopt};
    }
    Base = ASE->getBase();
    Offset = ASE->getIdx();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->getOpcode() == BO_Add) {
    bool LeftPointer = BO->getLHS()->getType()->isPointerType();
    Base = LeftPointer ? BO->getLHS() : BO->getRHS();
    Offset = LeftPointer ? BO->getRHS() : BO->getLHS();
  }
  std::optional<AccessPath> P = accessPath(Base, Ctx);
  if (!P)
    return std::nullopt;
  BufferPath B{std::move(*P), std::nullopt};
  if (Offset) {
    std::string Key;
    if (!appendArithmetic(Key, Offset, Ctx))
      return std::nullopt;
    B.Offset = std::move(Key);
  }
  return B;
}

bool mayOverlap(const BufferPath &A, const BufferPath &B) {
  return A.Pointer == B.Pointer &&
         (!A.Offset || !B.Offset || *A.Offset == *B.Offset);
}

namespace {

/// An index as what it adds to a constant: 'dev * n + 2' is ('dev * n', 2),
/// '3' is ('', 3).
std::optional<std::pair<std::string, int64_t>>
splitIndex(const Expr *Index, const ASTContext &Ctx) {
  Index = Index->IgnoreParenCasts();
  if (std::optional<int64_t> C = integerConstant(Index, Ctx))
    return std::make_pair(std::string(), *C);
  std::string Key;
  if (const auto *BO = dyn_cast<BinaryOperator>(Index);
      BO && BO->isAdditiveOp())
    if (std::optional<int64_t> C = integerConstant(BO->getRHS(), Ctx)) {
      if (!appendArithmetic(Key, BO->getLHS(), Ctx))
        return std::nullopt;
      return std::make_pair(Key, BO->getOpcode() == BO_Add ? *C : -*C);
    }
  if (!appendArithmetic(Key, Index, Ctx))
    return std::nullopt;
  return std::make_pair(Key, int64_t(0));
}

} // namespace

bool certainlyOtherElement(const Expr *A, const Expr *B,
                           const ASTContext &Ctx) {
  const auto *EA = dyn_cast<ArraySubscriptExpr>(A->IgnoreParenImpCasts());
  const auto *EB = dyn_cast<ArraySubscriptExpr>(B->IgnoreParenImpCasts());
  if (!EA || !EB)
    return false;
  std::optional<AccessPath> BaseA = accessPath(EA->getBase(), Ctx);
  std::optional<AccessPath> BaseB = accessPath(EB->getBase(), Ctx);
  auto IA = splitIndex(EA->getIdx(), Ctx), IB = splitIndex(EB->getIdx(), Ctx);
  return BaseA && BaseB && *BaseA == *BaseB && IA && IB &&
         IA->first == IB->first && IA->second != IB->second;
}

bool certainlySame(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  std::optional<AccessPath> PA = accessPath(A, Ctx), PB = accessPath(B, Ctx);
  return PA && PB && *PA == *PB;
}

} // namespace cuda_async_lint
