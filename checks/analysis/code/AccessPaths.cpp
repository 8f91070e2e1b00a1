//===- AccessPaths.cpp ----------------------------------------------------===//

#include "AccessPaths.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include <numeric>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The key of an index of any value, and of its subscript.
constexpr llvm::StringLiteral AnyIndex = "*";
constexpr llvm::StringLiteral AnyIndexKey = "[*]";

std::string idOf(const void *P) {
  return std::to_string(reinterpret_cast<uintptr_t>(P));
}

bool append(std::string &Key, const Expr *E, const ASTContext &Ctx,
            RangingIndex Ranging = nullptr);

/// \p E, an index or an offset, as a key: constants, the objects append
/// names, and the arithmetic between them ('(dev + 1) * nStream + 1');
/// false for anything else (a call).
bool appendArithmetic(std::string &Key, const Expr *E, const ASTContext &Ctx,
                      RangingIndex Ranging = nullptr) {
  E = E->IgnoreParenCasts();
  if (std::optional<int64_t> C = integerConstant(E, Ctx)) {
    Key += std::to_string(*C);
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isAdditiveOp() || BO->isMultiplicativeOp())) {
    Key += "(";
    if (!appendArithmetic(Key, BO->getLHS(), Ctx, Ranging))
      return false;
    Key += BO->getOpcodeStr().str();
    if (!appendArithmetic(Key, BO->getRHS(), Ctx, Ranging))
      return false;
    Key += ")";
    return true;
  }
  return append(Key, E, Ctx, Ranging);
}

bool append(std::string &Key, const Expr *E, const ASTContext &Ctx,
            RangingIndex Ranging) {
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
    if (!FD || !append(Key, ME->getBase(), Ctx, Ranging))
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
  if (!append(Key, Base, Ctx, Ranging))
    return false;
  Key += "[";
  if (!Index)
    Key += "0";
  else if (Ranging && Ranging(Index))
    Key += AnyIndex;
  else if (!appendArithmetic(Key, Index, Ctx, Ranging))
    return false;
  Key += "]";
  return true;
}

/// The end of the index that begins at \p From, just past its ']'.
size_t indexEnd(llvm::StringRef Key, size_t From) {
  unsigned Depth = 0;
  for (size_t I = From; I < Key.size(); ++I)
    if (Key[I] == '[')
      ++Depth;
    else if (Key[I] == ']' && --Depth == 0)
      return I + 1;
  return Key.size();
}

/// Whether two keys may name one object: equal, but for an index of any
/// value in one ('[*]'), which matches any index of the other.
bool keysMayMatch(llvm::StringRef A, llvm::StringRef B) {
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    bool AnyA = A.substr(I).starts_with(AnyIndexKey);
    bool AnyB = B.substr(J).starts_with(AnyIndexKey);
    if ((AnyA || AnyB) && A[I] == '[' && B[J] == '[') {
      I = indexEnd(A, I);
      J = indexEnd(B, J);
      continue;
    }
    if (A[I++] != B[J++])
      return false;
  }
  return I == A.size() && J == B.size();
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

std::optional<BufferPath> bufferPath(const Expr *E, const ASTContext &Ctx,
                                     RangingIndex Ranging) {
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
      AccessPath Whole;
      if (!append(Whole.Key, Operand, Ctx, Ranging))
        return std::nullopt;
      return BufferPath{std::move(Whole), std::nullopt};
    }
    Base = ASE->getBase();
    Offset = ASE->getIdx();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->getOpcode() == BO_Add) {
    bool LeftPointer = BO->getLHS()->getType()->isPointerType();
    Base = LeftPointer ? BO->getLHS() : BO->getRHS();
    Offset = LeftPointer ? BO->getRHS() : BO->getLHS();
  }
  BufferPath B;
  if (!append(B.Pointer.Key, Base, Ctx, Ranging))
    return std::nullopt;
  // An offset of any value is somewhere in the buffer: the pointer itself.
  if (Offset && !(Ranging && Ranging(Offset))) {
    std::string Key;
    if (!appendArithmetic(Key, Offset, Ctx))
      return std::nullopt;
    B.Offset = std::move(Key);
  }
  return B;
}

bool mayOverlap(const BufferPath &A, const BufferPath &B) {
  return keysMayMatch(A.Pointer.Key, B.Pointer.Key) &&
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

namespace {

/// An index as the values it may take: 'K * v + C' for any integer v
/// (Stride K, a constant; 'v * K' alike), or exactly C (Stride 0).
struct IndexValues {
  int64_t Stride;
  int64_t C;
};

std::optional<IndexValues> indexValues(const Expr *Index,
                                       const ASTContext &Ctx) {
  Index = Index->IgnoreParenCasts();
  if (std::optional<int64_t> C = integerConstant(Index, Ctx))
    return IndexValues{0, *C};
  int64_t C = 0;
  if (const auto *BO = dyn_cast<BinaryOperator>(Index);
      BO && BO->isAdditiveOp())
    if (std::optional<int64_t> K = integerConstant(BO->getRHS(), Ctx)) {
      C = BO->getOpcode() == BO_Add ? *K : -*K;
      Index = BO->getLHS()->IgnoreParenCasts();
    }
  const auto *Mul = dyn_cast<BinaryOperator>(Index);
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return std::nullopt;
  std::optional<int64_t> K = integerConstant(Mul->getRHS(), Ctx);
  if (!K)
    K = integerConstant(Mul->getLHS(), Ctx);
  if (!K || *K == 0)
    return std::nullopt;
  return IndexValues{*K < 0 ? -*K : *K, C};
}

} // namespace

bool alwaysOtherElement(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  const auto *EA = dyn_cast<ArraySubscriptExpr>(A->IgnoreParenImpCasts());
  const auto *EB = dyn_cast<ArraySubscriptExpr>(B->IgnoreParenImpCasts());
  if (!EA || !EB)
    return false;
  std::optional<AccessPath> BaseA = accessPath(EA->getBase(), Ctx);
  std::optional<AccessPath> BaseB = accessPath(EB->getBase(), Ctx);
  std::optional<IndexValues> VA = indexValues(EA->getIdx(), Ctx);
  std::optional<IndexValues> VB = indexValues(EB->getIdx(), Ctx);
  if (!BaseA || !BaseB || !(*BaseA == *BaseB) || !VA || !VB)
    return false;
  // K1 * x + C1 = K2 * y + C2 has integer solutions exactly when
  // gcd(K1, K2) divides C1 - C2 (a constant has stride 0).
  int64_t G = std::gcd(VA->Stride, VB->Stride);
  int64_t Diff = VA->C - VB->C;
  return G == 0 ? Diff != 0 : Diff % G != 0;
}

bool certainlySame(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  std::optional<AccessPath> PA = accessPath(A, Ctx), PB = accessPath(B, Ctx);
  return PA && PB && *PA == *PB;
}

} // namespace cuda_async_lint
