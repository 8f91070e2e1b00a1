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

/// An index as the rest and the constant it adds: 'dev * n + 2' is
/// ('dev * n', 2), 'dev - 1' is ('dev', -1), '3' is (null, 3), 'i' is
/// ('i', 0).
std::pair<const Expr *, int64_t> constantAddend(const Expr *Index,
                                                const ASTContext &Ctx) {
  Index = Index->IgnoreParenCasts();
  if (std::optional<int64_t> C = integerConstant(Index, Ctx))
    return {nullptr, *C};
  if (const auto *BO = dyn_cast<BinaryOperator>(Index);
      BO && BO->isAdditiveOp())
    if (std::optional<int64_t> C = integerConstant(BO->getRHS(), Ctx))
      return {BO->getLHS()->IgnoreParenCasts(),
              BO->getOpcode() == BO_Add ? *C : -*C};
  return {Index, 0};
}

/// The indices of \p A and \p B where both are elements of one array
/// ('stream[...]' twice, the array named by one path).
std::optional<std::pair<const Expr *, const Expr *>>
indicesIntoOneArray(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  const auto *EA = dyn_cast<ArraySubscriptExpr>(A->IgnoreParenImpCasts());
  const auto *EB = dyn_cast<ArraySubscriptExpr>(B->IgnoreParenImpCasts());
  if (!EA || !EB)
    return std::nullopt;
  std::optional<AccessPath> BaseA = accessPath(EA->getBase(), Ctx);
  std::optional<AccessPath> BaseB = accessPath(EB->getBase(), Ctx);
  if (!BaseA || !BaseB || !(*BaseA == *BaseB))
    return std::nullopt;
  return std::make_pair(EA->getIdx(), EB->getIdx());
}

/// An index as what it adds to a constant, the rest as a key: 'dev * n + 2'
/// is ('(dev*n)', 2), '3' is ('', 3).
std::optional<std::pair<std::string, int64_t>>
splitIndex(const Expr *Index, const ASTContext &Ctx) {
  auto [Rest, C] = constantAddend(Index, Ctx);
  std::string Key;
  if (Rest && !appendArithmetic(Key, Rest, Ctx))
    return std::nullopt;
  return std::make_pair(std::move(Key), C);
}

/// An index as the values it may take: 'K * v + C' for any integer v
/// (Stride K, a constant; 'v * K' alike), or exactly C (Stride 0).
struct IndexValues {
  int64_t Stride;
  int64_t C;
};

std::optional<IndexValues> indexValues(const Expr *Index,
                                       const ASTContext &Ctx) {
  auto [Rest, C] = constantAddend(Index, Ctx);
  if (!Rest)
    return IndexValues{0, C};
  const auto *Mul = dyn_cast<BinaryOperator>(Rest);
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

bool certainlyOtherElement(const Expr *A, const Expr *B,
                           const ASTContext &Ctx) {
  auto Indices = indicesIntoOneArray(A, B, Ctx);
  if (!Indices)
    return false;
  auto IA = splitIndex(Indices->first, Ctx);
  auto IB = splitIndex(Indices->second, Ctx);
  return IA && IB && IA->first == IB->first && IA->second != IB->second;
}

bool alwaysOtherElement(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  auto Indices = indicesIntoOneArray(A, B, Ctx);
  if (!Indices)
    return false;
  std::optional<IndexValues> VA = indexValues(Indices->first, Ctx);
  std::optional<IndexValues> VB = indexValues(Indices->second, Ctx);
  if (!VA || !VB)
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
