//===- HostAccess.cpp -----------------------------------------------------===//

#include "HostAccess.h"
#include "ParameterHostUses.h"
#include "analysis/code/LocalAliases.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The index of \p Call's argument that binds \p FD's first parameter: 1
/// for a member operator call, whose argument 0 is the object.
unsigned firstParamArg(const CallExpr *Call, const FunctionDecl *FD) {
  return isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(FD)
             ? 1
             : 0;
}

/// A function of the user's code: not the CUDA runtime's or a library's,
/// whose declarations are in system headers.
bool isUserFunction(const FunctionDecl *FD) {
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

} // namespace

HostAccessFinder::HostAccessFinder(const FunctionDecl *FD) : Function(FD) {
  LocalAliases Found = findLocalAliases(FD);
  Aliases = std::move(Found.Aliases);
  RangeLoops = std::move(Found.RangeLoops);
}

void HostAccessFinder::callAccesses(
    const CallExpr *Call, llvm::SmallVectorImpl<HostAccess> &Out) const {
  auto Add = [&](const Expr *Arg, AccessKind Kind) {
    if (std::optional<BufferRef> B = bufferOf(Arg))
      if (B->Base) {
        B->Element.reset(); // From there on, as far as the call goes.
        Out.push_back({Call, std::move(*B), Kind, Arg});
      }
  };
  if (isa<CUDAKernelCallExpr>(Call))
    return; // Kernels run on the device, in stream order.
  const FunctionDecl *FD = Call->getDirectCallee();
  if (const ApiSpec *Api = lookupApi(Call)) {
    if (const Expr *Ptr = releasedPointer(Call, *Api))
      Add(Ptr, AccessKind::Release);
    else if (Api->Kind == ApiKind::Unregister)
      Add(Api->arg(Call, ArgRole::Ptr), AccessKind::Release);
    else if (Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Blocking)
      for (const HostSide &Side : hostSides(Call, *Api, FD->getASTContext()))
        Add(Side.Arg,
            Side.IsDestination ? AccessKind::Write : AccessKind::Read);
    return;
  }
  if (const LibraryAccess *L = libraryAccess(FD)) {
    if (L->Write >= 0 && unsigned(L->Write) < Call->getNumArgs())
      Add(Call->getArg(L->Write), AccessKind::Write);
    if (L->Read >= 0 && unsigned(L->Read) < Call->getNumArgs())
      Add(Call->getArg(L->Read), AccessKind::Read);
    return;
  }
  // A container's own mutators move or change its storage.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && MD->getIdentifier() && isContainerMutator(MD->getName()))
      if (const Expr *Object = MC->getImplicitObjectArgument())
        if (std::optional<BufferRef> B = lvalueBuffer(Object))
          Out.push_back({Call, std::move(*B), AccessKind::Write, Object});
  }
  // Anything else: what the callee does with it (ParameterHostUses.h); a
  // library's function by its parameter types, a pointer or reference to
  // non-const written through, to const read.
  size_t Before = Out.size();
  const auto *Proto = FD ? FD->getType()->getAs<FunctionProtoType>() : nullptr;
  unsigned Offset = firstParamArg(Call, FD);
  for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    QualType Param;
    if (Proto && I - Offset < Proto->getNumParams())
      Param = Proto->getParamType(I - Offset);
    // A library function given the pointer variable itself
    // ('std::swap(front, back)', 'std::exchange(p, q)') moves the pointer,
    // not what it points to (those that write through a pointer take it by
    // value: std::fill, memcpy).
    if (FD && !isUserFunction(FD) && !Param.isNull() &&
        Param->isReferenceType() &&
        Param.getNonReferenceType()->isPointerType())
      continue;
    if (Arg->getType()->isPointerType() ||
        (!Param.isNull() && Param->isPointerType())) {
      bool Const = !Param.isNull() && Param->isPointerType()
                       ? Param->getPointeeType().isConstQualified()
                       : Arg->getType()->getPointeeType().isConstQualified();
      // Variadic arguments (printf) are read; so is what a call through a
      // pointer is given: nothing is known of its body.
      if (Const || Param.isNull() || !FD)
        Add(Arg, AccessKind::Read);
      else
        Add(Arg, AccessKind::Write);
      // A function of the user's: its body decides (resolve()).
      if (FD && !Param.isNull() && isUserFunction(FD) && !Out.empty() &&
          Out.back().Spelled == Arg && Out.back().At == Call) {
        Out.back().Callee = FD;
        Out.back().Param = I - Offset;
      }
      continue;
    }
    if (std::optional<BufferRef> B = lvalueBuffer(Arg)) {
      bool Write = !Param.isNull() && Param->isReferenceType() &&
                   !Param.getNonReferenceType().isConstQualified();
      Out.push_back({Call, std::move(*B),
                     Write ? AccessKind::Write : AccessKind::Read, Arg});
    }
  }
  if (isAtomicBuiltin(Call))
    for (size_t I = Before; I < Out.size(); ++I)
      Out[I].Atomic = true;
}

/// Whether the reference \p VD is bound to a temporary, whose lifetime it
/// extends to its own.
static bool bindsTemporary(const VarDecl *VD) {
  const Expr *E = VD->getInit();
  while (E && !isa<MaterializeTemporaryExpr>(E)) {
    if (const auto *Full = dyn_cast<FullExpr>(E))
      E = Full->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *Paren = dyn_cast<ParenExpr>(E))
      E = Paren->getSubExpr();
    else
      return false;
  }
  return E != nullptr;
}

void HostAccessFinder::accessesOf(
    const CFGElement &Element, llvm::SmallVectorImpl<HostAccess> &Out) const {
  if (std::optional<CFGLifetimeEnds> End = Element.getAs<CFGLifetimeEnds>()) {
    const VarDecl *VD = End->getVarDecl();
    // A reference going out of scope ends the reference, not what it
    // refers to; only a temporary it was bound to (and extended) ends too.
    if (VD->getType()->isReferenceType() && !bindsTemporary(VD))
      return;
    if (VD->getType()->isArrayType() || isPageableContainer(VD->getType()))
      Out.push_back({End->getTriggerStmt(), BufferRef{VD, {}},
                     AccessKind::EndOfLifetime, nullptr});
    return;
  }
  std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *S = CS->getStmt();
  auto AddLValue = [&](const Expr *LValue, AccessKind Kind) {
    if (std::optional<BufferRef> B = lvalueBuffer(LValue))
      if (B->Base)
        Out.push_back({S, std::move(*B), Kind, LValue});
  };
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      AddLValue(Cast->getSubExpr(), AccessKind::Read);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      AddLValue(BO->getLHS(), AccessKind::Write);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      AddLValue(UO->getSubExpr(), AccessKind::Write);
    return;
  }
  if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
    if (std::optional<BufferRef> B = bufferOf(Delete->getArgument()))
      Out.push_back(
          {S, std::move(*B), AccessKind::Release, Delete->getArgument()});
    return;
  }
  // 'h[j] = p' of a struct: its assignment operator (implicit, or the
  // class's) writes the object it is called on, as '=' on a scalar does.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && Op->getNumArgs() == 2 &&
      isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee())) {
    AddLValue(Op->getArg(0), AccessKind::Write);
    AddLValue(Op->getArg(1), AccessKind::Read);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    callAccesses(Call, Out);
    return;
  }
  // 'Box b = *(Box *)&h[i * 9]': a struct copied out of the buffer.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && Construct->getNumArgs() >= 1)
      AddLValue(Construct->getArg(0), AccessKind::Read);
    return;
  }
  // for (T x : range): each iteration reads (or, through a non-const
  // reference, writes) the range.
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!DS->isSingleDecl())
      return;
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    auto It = VD ? RangeLoops.find(VD) : RangeLoops.end();
    if (It == RangeLoops.end())
      return;
    QualType T = VD->getType();
    bool Write =
        T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
    // Reported at the range, where the buffer is named.
    const Expr *Range = It->second->getRangeInit();
    if (std::optional<BufferRef> B = lvalueBuffer(Range))
      Out.push_back({Range, std::move(*B),
                     Write ? AccessKind::Write : AccessKind::Read, Range});
  }
}

void HostAccessFinder::reassignedMembers(
    const Stmt *S, llvm::SmallVectorImpl<BufferRef> &Out) const {
  auto Add = [&](const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParens());
    if (ME && ME->getType()->isPointerType())
      Out.push_back(memberBuffer(ME));
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Add(BO->getLHS());
    return;
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return;
  const FunctionDecl *FD = Call->getDirectCallee();
  unsigned Offset = firstParamArg(Call, FD);
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
        UO && UO->getOpcode() == UO_AddrOf) {
      Add(UO->getSubExpr());
      continue;
    }
    // By non-const reference (or unknown: a call through a pointer).
    if (I < Offset || !FD || I - Offset >= FD->getNumParams())
      continue;
    if (bindsArgumentForWriting(FD, I - Offset))
      Add(Arg);
  }
}

bool HostAccessFinder::resolve(HostAccess &A) const {
  if (!A.Callee)
    return true;
  if (!Uses)
    Uses = ParameterHostUses::forTranslationUnit(A.Callee->getASTContext());
  HostUse Bound = A.Kind == AccessKind::Read ? HostUse::Read : HostUse::Write;
  const Expr *Where = nullptr;
  HostUse Use = std::min(Uses->use(A.Callee, A.Param, &Where), Bound);
  if (Use == HostUse::None)
    return false;
  A.Atomic = Uses->updatesAtomically(A.Callee, A.Param);
  A.InCallee = Where;
  A.Kind = Use == HostUse::Read ? AccessKind::Read : AccessKind::Write;
  A.Callee = nullptr;
  return true;
}

const VarDecl *HostAccessFinder::writtenVariable(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() ? localVar(BO->getLHS()) : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return UO->isIncrementDecrementOp() ? localVar(UO->getSubExpr()) : nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    if (DS->isSingleDecl())
      return dyn_cast<VarDecl>(DS->getSingleDecl());
  return nullptr;
}

} // namespace cuda_async_lint
