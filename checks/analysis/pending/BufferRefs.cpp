//===- BufferRefs.cpp - The buffer an expression names --------------------===//
//
// HostAccessFinder's naming of buffers: the variable, array, container or
// field a pointer or lvalue derives from, the variables its index or offset
// uses, the slot of an array of pointers, the constant element it names.
//
//===----------------------------------------------------------------------===//

#include "HostAccess.h"
#include "analysis/code/LocalAliases.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/code/StorageAccessors.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Local non-pointer variables an offset or index expression uses.
void collectDeps(const Stmt *S, std::set<const VarDecl *> &Deps) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !VD->getType()->isPointerType())
        Deps.insert(VD);
  for (const Stmt *Child : S->children())
    collectDeps(Child, Deps);
}

/// Whether \p MD is named as a container's accessor ('data', 'begin', ...).
bool namesContainerAccessor(const CXXMethodDecl *MD) {
  return MD && MD->getIdentifier() && isContainerAccessor(MD->getName());
}

/// The member a class's own accessor hands out (StorageAccessors.h), for a
/// member function not named as a container's accessor: those keep the
/// container rule.
const FieldDecl *userStorage(const CXXMethodDecl *MD) {
  return MD && !namesContainerAccessor(MD) ? ownStorage(MD) : nullptr;
}

} // namespace

BufferRef HostAccessFinder::memberBuffer(const MemberExpr *ME) const {
  BufferRef B{ME->getMemberDecl(), {}};
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Base))
    B.Object = Function;
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
    B.Object = dyn_cast<VarDecl>(DRE->getDecl());
  // The member of an element ('s[i].A'): the element's index says which,
  // as an offset says which slice (another 'i', another struct).
  else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Base))
    collectDeps(ASE->getIdx(), B.Deps);
  return B;
}

void HostAccessFinder::setElement(BufferRef &B, const Expr *Index,
                                  QualType Element) const {
  const ASTContext &Ctx = Function->getASTContext();
  std::optional<int64_t> I = integerConstant(Index, Ctx);
  if (!I || *I < 0 || Element.isNull() || Element->isIncompleteType() ||
      Element->isDependentType())
    return;
  int64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
  B.Element = *I * Size;
  B.ElementEnd = *B.Element + Size;
}

std::optional<BufferRef> HostAccessFinder::bufferOf(const Expr *E) const {
  E = E->IgnoreParens();
  if (E->isGLValue() && E->getType()->isArrayType())
    return lvalueBuffer(E).value_or(BufferRef{});
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return bufferOf(Cast->getSubExpr());
    if (Cast->getCastKind() != CK_LValueToRValue)
      return bufferOf(Cast->getSubExpr());
    E = Cast->getSubExpr()->IgnoreParens();
  }
  // A pointer value: a variable (or what it aliases), a field, an element
  // of an array of pointers.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (VD->getType()->isArrayType() || !VD->getType()->isPointerType())
      return BufferRef{VD, {}};
    if (auto It = Aliases.find(VD); It != Aliases.end())
      if (std::optional<BufferRef> Source = bufferOf(It->second))
        if (Source->Base != VD)
          return Source;
    return BufferRef{VD, {}};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberBuffer(ME);
  // A pointer loaded from an element of an array of pointers: the memory
  // it points to, one load past the array's own.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<BufferRef> Array = lvalueBuffer(ASE->getBase());
    if (!Array)
      Array = bufferOf(ASE->getBase());
    if (Array) {
      collectDeps(ASE->getIdx(), Array->Deps);
      if (ASE->getType()->isPointerType()) {
        ++Array->Loads;
        Array->Slot = integerConstant(ASE->getIdx(), Function->getASTContext());
      }
    }
    return Array;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAdditiveOp())
      return std::nullopt;
    bool LeftIsPointer = BO->getLHS()->getType()->isPointerType();
    std::optional<BufferRef> B =
        bufferOf(LeftIsPointer ? BO->getLHS() : BO->getRHS());
    const Expr *Offset = LeftIsPointer ? BO->getRHS() : BO->getLHS();
    if (B) {
      collectDeps(Offset, B->Deps);
      // 'h + 4' from the buffer's start: where a copy given it starts.
      bool FromStart = !B->Element;
      B->Element.reset();
      if (B->Loads == 0 && FromStart && BO->getOpcode() == BO_Add)
        setElement(*B, Offset, BO->getType()->getPointeeType());
    }
    return B;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return lvalueBuffer(UO->getSubExpr());
    // '*pp' read as a pointer: what the pointer stored there points to.
    if (UO->getOpcode() == UO_Deref && UO->getType()->isPointerType()) {
      std::optional<BufferRef> Slot = lvalueBuffer(UO);
      if (Slot)
        ++Slot->Loads;
      return Slot;
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Written = MC->getImplicitObjectArgument();
    if (!MD || !Written)
      return std::nullopt;
    const Expr *Object = Written->IgnoreParenImpCasts();
    // A class's own accessor of the storage it owns ('m.lane(i)',
    // 'c.elt(r, c)'): that member of the object, as its member functions
    // name it; for a member object of this class, the member itself.
    if (const FieldDecl *Storage = userStorage(MD)) {
      if (const auto *ME = dyn_cast<MemberExpr>(Object))
        return memberBuffer(ME);
      if (isa<CXXThisExpr>(Object))
        return BufferRef{Storage, {}, Function};
      if (const VarDecl *VD = declRefVar(Object))
        return BufferRef{Storage, {}, VD};
      return std::nullopt;
    }
    // A container's accessor ('v.data()'): the container's buffer, the
    // object as written (as before the storage accessors: CUDASW4's
    // 'ws.d_query.data()' named another way brought false findings, 73d8543).
    if (!namesContainerAccessor(MD))
      return std::nullopt;
    if (const VarDecl *VD = localVar(Written))
      return BufferRef{VD, {}};
    if (const auto *ME = dyn_cast<MemberExpr>(Written))
      return memberBuffer(ME);
    return std::nullopt;
  }
  return std::nullopt;
}

/// The buffer an lvalue of memory (an element, a dereference, a member
/// through a pointer, a container element, an array) lives in.
std::optional<BufferRef> HostAccessFinder::lvalueBuffer(const Expr *E) const {
  E = E->IgnoreParens();
  // A struct bound to 'const Box &' (its copy assignment or constructor).
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() != CK_NoOp)
      break;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD &&
        (VD->getType()->isArrayType() || isPageableContainer(VD->getType())))
      return BufferRef{VD, {}};
    // A local scalar or struct is its own storage ('cudaMemcpyAsync(&x,
    // ...); return x;' reads what the copy writes); a pointer's value is
    // not the memory it points to.
    if (VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
        !VD->getType()->isPointerType() &&
        (VD->getType()->isScalarType() || VD->getType()->isRecordType()))
      return BufferRef{VD, {}};
    return std::nullopt;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    std::optional<BufferRef> B = bufferOf(ASE->getBase());
    if (B) {
      collectDeps(ASE->getIdx(), B->Deps);
      // One element of an array of scalars ('sections[0]'), from the start
      // of the buffer (not of a pointer already offset: 'h + 4' then '[1]').
      bool FromStart = !B->Element;
      B->Element.reset();
      if (B->Loads == 0 && FromStart && ASE->getType()->isScalarType() &&
          !ASE->getType()->isPointerType())
        setElement(*B, ASE->getIdx(), ASE->getType());
    }
    return B;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref ? bufferOf(UO->getSubExpr())
                                       : std::nullopt;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return ME->getType()->isArrayType()
                 ? std::optional<BufferRef>(memberBuffer(ME))
                 : bufferOf(ME->getBase());
    return lvalueBuffer(ME->getBase());
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() != OO_Subscript || Op->getNumArgs() != 2)
      return std::nullopt;
    std::optional<BufferRef> B = lvalueBuffer(Op->getArg(0));
    if (B)
      collectDeps(Op->getArg(1), B->Deps);
    return B;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    // An element of the storage a class hands out ('m.elt(r, c)').
    if (userStorage(MD))
      return bufferOf(MC);
    if (!namesContainerAccessor(MD) || !MC->getImplicitObjectArgument())
      return std::nullopt;
    std::optional<BufferRef> B = lvalueBuffer(MC->getImplicitObjectArgument());
    if (B)
      for (const Expr *Arg : MC->arguments())
        collectDeps(Arg, B->Deps);
    return B;
  }
  return std::nullopt;
}

} // namespace cuda_async_lint
