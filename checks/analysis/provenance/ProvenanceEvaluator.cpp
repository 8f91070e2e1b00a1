//===- ProvenanceEvaluator.cpp - Pointer values in a state ----------------===//

#include "ProvenanceEvaluator.h"
#include "ProvenanceExpressions.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "summaries/Summarize.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_async_lint::provenance {

PointerValue Evaluator::global(const VarDecl *VD) const {
  if (!Summaries)
    return PointerValue::unknown();
  if (!Summaries->tracksGlobal(VD))
    return Summaries->stored(VD);
  if (auto It = S.Vars.find(VD); It != S.Vars.end())
    return It->second;
  return Summaries->globalAtEntry(VD, Function);
}

PointerValue Evaluator::pointer(const Expr *E) const {
  E = E->IgnoreParens();
  // Callers may hand over an argument without its implicit conversions:
  // an lvalue array decays to its storage, an lvalue pointer is loaded.
  if (E->isGLValue())
    return E->getType()->isArrayType() ? storage(E) : loaded(E);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return storage(Cast->getSubExpr());
    case CK_LValueToRValue:
      return loaded(Cast->getSubExpr());
    case CK_NullToPointer:
      return PointerValue::unset();
    case CK_IntegralToPointer:
      // '(float *)(((size_t)p + 4095) & ~4095)': p aligned, within p's
      // allocation.
      if (const Expr *Base = addressArithmeticBase(Cast->getSubExpr()))
        return pointer(Base);
      return PointerValue::unknown();
    default:
      return pointer(Cast->getSubExpr());
    }
  }
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return PointerValue::unset();
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return pointer(Default->getExpr());
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return storage(UO->getSubExpr());
    if (UO->isIncrementDecrementOp())
      return loaded(UO->getSubExpr());
    return PointerValue::unknown();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return BO->isCompoundAssignmentOp() ? loaded(BO->getLHS())
                                          : pointer(BO->getRHS());
    if (BO->isAdditiveOp()) // p + n, n + p, p - n: same allocation.
      return pointer(BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                              : BO->getRHS());
    return PointerValue::unknown();
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return PointerValue::join(pointer(CO->getTrueExpr()),
                              pointer(CO->getFalseExpr()));
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    // Only the replaceable global operator new: placement new reuses
    // storage of its own provenance.
    const FunctionDecl *Op = New->getOperatorNew();
    if (Op && Op->isReplaceableGlobalAllocationFunction() &&
        (New->getNumPlacementArgs() == 0 || isNothrowPlacement(New)))
      return PointerValue::known(MemoryKind::Pageable, New);
    // A class's own operator new ('void *operator new(size_t n) {
    // cudaMallocManaged(&p, n); return p; }'): what its body returns.
    if (Op && !Op->isReplaceableGlobalAllocationFunction() &&
        New->getNumPlacementArgs() == 0 && Summaries)
      if (const FunctionSummary *Summary = Summaries->summary(Op))
        return Summary->Returns;
    return PointerValue::unknown();
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return memberCall(MC);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call);
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    return pointer(Cleanups->getSubExpr());
  return PointerValue::unknown();
}

PointerValue Evaluator::smartPointerSource(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    return smartPointerSource(Cleanups->getSubExpr());
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return smartPointerSource(Temp->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return smartPointerSource(Bind->getSubExpr());
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return PointerValue::unset();
    const Expr *Arg = Construct->getArg(0);
    return isSmartPointer(Arg->getType()) ? smartPointerSource(Arg)
                                          : pointer(Arg);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (isMakeSmartPointer(Call->getDirectCallee()))
      return PointerValue::known(MemoryKind::Pageable, Call);
  if (isa<CXXNullPtrLiteralExpr>(E))
    return PointerValue::unset();
  if (const VarDecl *VD = asTrackedLocal(E))
    return value(VD);
  return PointerValue::unknown();
}

const ParmVarDecl *Evaluator::outParameter(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  const auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!PD || !isOutParameterType(PD->getType()) || S.Vars.count(PD))
    return nullptr;
  return PD;
}

llvm::SmallVector<const void *, 2>
Evaluator::registrationKeys(const Expr *E, ProgramAnswers *Made) const {
  PointerValue V = pointer(E);
  if (Made)
    addAnswers(*Made, V.answers());
  llvm::SmallVector<const void *, 2> Keys = originKeys(V);
  if (!Keys.empty())
    return Keys;
  if (const ParmVarDecl *PD = pointerParameterBase(E))
    if (!S.Vars.count(PD))
      Keys.push_back(PD);
  if (const VarDecl *VD = globalBase(E))
    if (keysByGlobal(VD))
      Keys.push_back(VD);
  return Keys;
}

bool Evaluator::registrationRead(const Expr *Arg, const FunctionDecl *Callee,
                                 ProgramAnswers &Made) const {
  PointerValue V = pointer(Arg);
  addAnswers(Made, V.answers());
  if (!V.peekOrigins().empty())
    return !Summaries || llvm::any_of(V.peekOrigins(), [&](Origin O) {
      return Summaries->originRegistrationRead(O, Arg, Function, Callee);
    });
  if (const ParmVarDecl *PD = pointerParameterBase(Arg))
    if (!S.Vars.count(PD))
      return !Summaries ||
             Summaries->parameterRegistrationRead(PD, Arg, Function, Callee);
  if (const VarDecl *VD = globalBase(Arg))
    return keysByGlobal(VD);
  return false;
}

bool Evaluator::keysByGlobal(const VarDecl *VD) const {
  return Summaries && Summaries->tracksGlobal(VD) &&
         !Summaries->mayStoreGlobal(Function, VD);
}

llvm::SmallVector<const void *, 2>
Evaluator::globalRegistrationKeys(const VarDecl *VD,
                                  ProgramAnswers &Made) const {
  PointerValue V = global(VD);
  addAnswers(Made, V.answers());
  llvm::SmallVector<const void *, 2> Keys = originKeys(V);
  if (Keys.empty() && keysByGlobal(VD))
    Keys.push_back(VD);
  return Keys;
}

llvm::SmallVector<const void *, 2>
Evaluator::originKeys(const PointerValue &V) {
  llvm::SmallVector<const void *, 2> Keys;
  for (Origin O : V.peekOrigins())
    Keys.push_back(O.getOpaqueValue());
  return Keys;
}

bool Evaluator::isNothrowPlacement(const CXXNewExpr *New) {
  if (New->getNumPlacementArgs() != 1)
    return false;
  QualType T = New->getPlacementArg(0)->getType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getName() == "nothrow_t";
}

PointerValue Evaluator::value(const VarDecl *VD) const {
  if (Escaped.count(VD))
    return PointerValue::unknown();
  return S.get(VD);
}

PointerValue Evaluator::loaded(const Expr *LValue) const {
  LValue = LValue->IgnoreParens();
  if (const VarDecl *VD = asTrackedLocal(LValue))
    return value(VD);
  // An element of a local array of pointers: the array's one summary.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LValue))
    if (const VarDecl *VD = asTrackedLocal(ASE->getBase())) {
      if (VD->getType()->isArrayType())
        return value(VD);
      // An element of a table of pointers: what was stored into any.
      if (PointerTables.count(VD)) {
        auto It = S.Pointees.find(VD);
        return It == S.Pointees.end() ? PointerValue::unknown() : It->second;
      }
    }
  // A field of one object this function stored into.
  if (std::optional<ObjectMember> M = objectMember(LValue))
    if (!Escaped.count(M->Base))
      if (auto It = S.Members.find({M->Base, M->Field}); It != S.Members.end())
        return It->second;
  // A global: what this function stored, or what it began with. A
  // field: what every store in the translation unit put there.
  if (const ValueDecl *D = summarizedVariable(LValue)) {
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return global(VD);
    return Summaries ? Summaries->stored(D) : PointerValue::unknown();
  }
  // What this function stored into a T*& parameter, or through a T** one
  // (outParameter, as the dataflow's assign stores it) and read back
  // through it: '*pp = (int *)malloc(n); cudaHostRegister(*pp, n, 0);'.
  const ParmVarDecl *StoredInto = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LValue)) {
    const auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl());
    if (PD && PD->getType()->isReferenceType())
      StoredInto = PD;
  } else if (const auto *UO = dyn_cast<UnaryOperator>(LValue);
             UO && UO->getOpcode() == UO_Deref) {
    StoredInto = outParameter(UO->getSubExpr());
  }
  if (StoredInto)
    if (auto It = S.Pointees.find(StoredInto); It != S.Pointees.end())
      return It->second;
  // C++ lvalues that stand for another one: 'p = q', '++p', 'c ? p : q'.
  if (const auto *BO = dyn_cast<BinaryOperator>(LValue)) {
    if (BO->getOpcode() == BO_Assign)
      return pointer(BO->getRHS());
    if (BO->isCompoundAssignmentOp())
      return loaded(BO->getLHS());
    if (BO->getOpcode() == BO_Comma)
      return loaded(BO->getRHS());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LValue))
    if (UO->isIncrementDecrementOp())
      return loaded(UO->getSubExpr());
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(LValue))
    return PointerValue::join(loaded(CO->getTrueExpr()),
                              loaded(CO->getFalseExpr()));
  return PointerValue::unknown();
}

PointerValue Evaluator::storage(const Expr *E) const {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType())
      return PointerValue::unknown();
    // CUDA variables: __device__/__constant__ live on the device,
    // __managed__ is unified memory.
    if (isManagedVariable(VD))
      return PointerValue::known(MemoryKind::Managed, VD);
    if (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>())
      return PointerValue::known(MemoryKind::Device, VD);
    // Stack, static and thread storage of host variables is pageable.
    return PointerValue::known(MemoryKind::Pageable, VD);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return pointer(ASE->getBase());
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (const PointerValue Own = thisMember(ME); Own.isKnown())
      return Own;
    return ME->isArrow() ? pointer(ME->getBase()) : storage(ME->getBase());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref ? pointer(UO->getSubExpr())
                                       : PointerValue::unknown();
  if (isa<StringLiteral>(E))
    return PointerValue::known(MemoryKind::Pageable, E);
  // v[i] on a container: its storage.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() > 0)
      return container(Op->getArg(0));
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return memberCall(MC);
  return PointerValue::unknown();
}

PointerValue Evaluator::thisMember(const MemberExpr *ME) const {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !ME->isArrow() ||
      !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return PointerValue::unknown();
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (!RD || !RD->hasDefinition() || declaresOperatorNew(RD))
    return PointerValue::unknown();
  return PointerValue::known(MemoryKind::Pageable, FD);
}

bool Evaluator::declaresOperatorNew(const CXXRecordDecl *RD) {
  for (const Decl *D : RD->decls()) {
    const FunctionDecl *FD = D->getAsFunction();
    if (FD && (FD->getOverloadedOperator() == OO_New ||
               FD->getOverloadedOperator() == OO_Array_New))
      return true;
  }
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (const CXXRecordDecl *B = Base.getType()->getAsCXXRecordDecl())
      if (!B->hasDefinition() || declaresOperatorNew(B))
        return true;
  return false;
}

PointerValue Evaluator::container(const Expr *Object) const {
  const Expr *E = Object->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && ((!VD->getType()->isReferenceType() &&
                isPageableContainer(VD->getType())) ||
               isPageableHeapContainer(VD->getType())))
      return PointerValue::known(MemoryKind::Pageable, VD);
    return PointerValue::unknown();
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (isPageableHeapContainer(FD->getType()))
        return PointerValue::known(MemoryKind::Pageable, FD);
  return PointerValue::unknown();
}

PointerValue Evaluator::memberCall(const CXXMemberCallExpr *MC) const {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const Expr *Object = MC->getImplicitObjectArgument();
  if (!MD || !Object)
    return PointerValue::unknown();
  llvm::StringRef Name = MD->getIdentifier() ? MD->getName() : "";
  if ((isPageableContainer(Object->getType()) ||
       isPageableHeapContainer(Object->getType())) &&
      (Name == "data" || Name == "c_str" || Name == "front" || Name == "back" ||
       Name == "at"))
    return container(Object);
  if (isSmartPointer(Object->getType())) {
    if (Name == "get")
      if (const VarDecl *VD = asTrackedLocal(Object))
        return value(VD);
    return PointerValue::unknown();
  }
  return call(MC);
}

PointerValue Evaluator::call(const CallExpr *Call) const {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (const ApiSpec *Api = lookupApi(Call))
    if (Api->Kind == ApiKind::Allocate && !Api->argIndex(ArgRole::Out))
      return PointerValue::known(*Api->Memory, Call);
  // std::addressof(x) is &x.
  if (FD && FD->isInStdNamespace() && FD->getIdentifier() &&
      FD->getName() == "addressof" && Call->getNumArgs() == 1)
    return storage(Call->getArg(0));
  if (FD && Summaries) {
    // Of another unit's function: made from the program's answer (none
    // yet is unknown too), recorded where it is read.
    std::optional<unsigned> Answer = Summaries->returnAnswer(FD);
    PointerValue V = PointerValue::unknown();
    if (const FunctionSummary *Summary = Summaries->summary(FD))
      V = Summary->Returns;
    return Answer ? V.madeFrom({*Answer}) : V;
  }
  return PointerValue::unknown();
}

} // namespace cuda_async_lint::provenance
