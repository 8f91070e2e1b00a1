//===- HostProvenance.cpp - The provenance dataflow
//------------------------===//

#include "HostProvenance.h"
#include "../api/CudaApiCatalog.h"
#include "ForwardDataflow.h"
#include "StdLibrary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Pointer-like locals the dataflow tracks by value.
bool isTrackedType(QualType T) {
  if (T->isReferenceType())
    return false;
  if (T->isPointerType() || isSmartPointer(T))
    return true;
  const clang::Type *Elem = T->getPointeeOrArrayElementType();
  return T->isArrayType() && Elem->isPointerType();
}

const VarDecl *asTrackedLocal(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  if (!DRE)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->hasLocalStorage() || !isTrackedType(VD->getType()))
    return nullptr;
  return VD;
}

/// True for a __managed__ variable. clang drops the 'managed' attribute in
/// CUDA mode, so the declaration's spelling is read instead.
bool isManagedVariable(const VarDecl *VD) {
  if (VD->hasAttr<HIPManagedAttr>())
    return true;
  if (!VD->hasGlobalStorage())
    return false;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  SourceLocation Begin = SM.getExpansionLoc(VD->getBeginLoc());
  SourceLocation Name = SM.getExpansionLoc(VD->getLocation());
  if (SM.getFileID(Begin) != SM.getFileID(Name))
    return false;
  llvm::StringRef Spelling =
      Lexer::getSourceText(CharSourceRange::getCharRange(Begin, Name), SM,
                           VD->getASTContext().getLangOpts());
  for (size_t At = Spelling.find("__managed__"); At != llvm::StringRef::npos;
       At = Spelling.find("__managed__", At + 1)) {
    bool StartsWord = At == 0 || !isAsciiIdentifierContinue(Spelling[At - 1]);
    size_t End = At + llvm::StringRef("__managed__").size();
    bool EndsWord =
        End == Spelling.size() || !isAsciiIdentifierContinue(Spelling[End]);
    if (StartsWord && EndsWord)
      return true;
  }
  return false;
}

/// The operand of '&x' under any casts: cudaMallocHost((void **)&p, n).
const Expr *addressOfOperand(const Expr *E) {
  const auto *UO = dyn_cast<UnaryOperator>(E->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  return UO->getSubExpr()->IgnoreParens();
}

/// Locals whose address or a reference to them is kept somewhere the
/// dataflow cannot follow: stored, captured by reference, bound to a
/// reference variable. They are Unknown everywhere. An '&p' passed straight
/// to a call is not an escape: the call's transfer handles it.
class EscapeFinder : public RecursiveASTVisitor<EscapeFinder> {
public:
  llvm::DenseSet<const VarDecl *> Escaped;

  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      if (const Expr *Operand = addressOfOperand(Arg))
        PassedToCall.insert(Operand);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() != UO_AddrOf)
      return true;
    const Expr *Operand = UO->getSubExpr()->IgnoreParens();
    if (PassedToCall.count(Operand))
      return true;
    if (const VarDecl *VD = asTrackedLocal(Operand))
      Escaped.insert(VD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          Escaped.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit())
      if (const VarDecl *Target = asTrackedLocal(VD->getInit()))
        Escaped.insert(Target);
    return true;
  }

private:
  llvm::DenseSet<const Expr *> PassedToCall;
};

/// Evaluates expressions to PointerValues in one dataflow state.
class Evaluator {
public:
  Evaluator(const ProvenanceState &S,
            const llvm::DenseSet<const VarDecl *> &Escaped)
      : S(S), Escaped(Escaped) {}

  /// What the pointer value of \p E points to.
  PointerValue pointer(const Expr *E) const {
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
        return PointerValue::unknown();
      default:
        return pointer(Cast->getSubExpr());
      }
    }
    if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(E))
      return PointerValue::unset();
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

  /// What a smart pointer is initialized or assigned from.
  PointerValue smartPointerSource(const Expr *E) const {
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

private:
  static bool isNothrowPlacement(const CXXNewExpr *New) {
    if (New->getNumPlacementArgs() != 1)
      return false;
    QualType T = New->getPlacementArg(0)->getType();
    const auto *RD = T->getAsCXXRecordDecl();
    return RD && RD->isInStdNamespace() && RD->getName() == "nothrow_t";
  }

  PointerValue value(const VarDecl *VD) const {
    if (Escaped.count(VD))
      return PointerValue::unknown();
    return S.get(VD);
  }

  /// The value a pointer lvalue holds.
  PointerValue loaded(const Expr *LValue) const {
    LValue = LValue->IgnoreParens();
    if (const VarDecl *VD = asTrackedLocal(LValue))
      return value(VD);
    // An element of a local array of pointers: the array's one summary.
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LValue))
      if (const VarDecl *VD = asTrackedLocal(ASE->getBase()))
        if (VD->getType()->isArrayType())
          return value(VD);
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

  /// The provenance of the storage that lvalue \p E designates.
  PointerValue storage(const Expr *E) const {
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
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->isArrow() ? pointer(ME->getBase()) : storage(ME->getBase());
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

  /// The storage a std container object owns.
  PointerValue container(const Expr *Object) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
    if (!DRE)
      return PointerValue::unknown();
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isReferenceType() ||
        !isPageableContainer(VD->getType()))
      return PointerValue::unknown();
    return PointerValue::known(MemoryKind::Pageable, VD);
  }

  /// v.data(), s.c_str(), v.front(), v.at(i), p.get().
  PointerValue memberCall(const CXXMemberCallExpr *MC) const {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Object = MC->getImplicitObjectArgument();
    if (!MD || !MD->getIdentifier() || !Object)
      return PointerValue::unknown();
    llvm::StringRef Name = MD->getName();
    if (isPageableContainer(Object->getType()) &&
        (Name == "data" || Name == "c_str" || Name == "front" ||
         Name == "back" || Name == "at"))
      return container(Object);
    if (isSmartPointer(Object->getType()) && Name == "get")
      if (const VarDecl *VD = asTrackedLocal(Object))
        return value(VD);
    return PointerValue::unknown();
  }

  PointerValue call(const CallExpr *Call) const {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (const ApiSpec *Api = lookupApi(Call))
      if (Api->Kind == ApiKind::Allocate && !Api->argIndex(ArgRole::Out))
        return PointerValue::known(*Api->Memory, Call);
    // std::addressof(x) is &x.
    if (FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        FD->getName() == "addressof" && Call->getNumArgs() == 1)
      return storage(Call->getArg(0));
    return PointerValue::unknown();
  }

  const ProvenanceState &S;
  const llvm::DenseSet<const VarDecl *> &Escaped;
};

/// The transfer functions over CFG elements, and the snapshot of the state
/// at each catalogued call.
class ProvenanceDataflow {
public:
  using State = ProvenanceState;

  explicit ProvenanceDataflow(const llvm::DenseSet<const VarDecl *> &Escaped)
      : Escaped(Escaped) {}

  State entryState() const { return State(); }
  void join(State &Into, const State &From) const { Into.join(From); }

  void transfer(const CFGElement &Element, State &S) const {
    std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
    if (!CS)
      return;
    const Stmt *St = CS->getStmt();
    Evaluator Eval(S, Escaped);
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->hasLocalStorage() && isTrackedType(VD->getType()))
            S.Vars.insert_or_assign(VD, initialValue(VD, Eval));
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
      if (BO->getOpcode() == BO_Assign)
        assign(BO->getLHS(), Eval.pointer(BO->getRHS()), S);
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(St)) {
      if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
          isSmartPointer(Op->getArg(0)->getType())) {
        assign(Op->getArg(0), Eval.smartPointerSource(Op->getArg(1)), S);
        return;
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(St)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Object = MC->getImplicitObjectArgument();
      if (MD && MD->getIdentifier() && MD->getName() == "reset" && Object &&
          isSmartPointer(Object->getType())) {
        assign(Object,
               MC->getNumArgs() ? Eval.pointer(MC->getArg(0))
                                : PointerValue::unset(),
               S);
        return;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(St))
      call(Call, S);
  }

  /// Records the state before every catalogued call.
  void snapshot(const CFGElement &Element, const State &S,
                std::map<const CallExpr *, State> &Out) const {
    if (std::optional<CFGStmt> CS = Element.getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
        if (lookupApi(Call))
          Out.insert_or_assign(Call, S);
  }

private:
  PointerValue initialValue(const VarDecl *VD, const Evaluator &Eval) const {
    const Expr *Init = VD->getInit();
    if (!Init)
      return PointerValue::unset();
    if (isSmartPointer(VD->getType()))
      return Eval.smartPointerSource(Init);
    if (VD->getType()->isArrayType())
      return PointerValue::unknown(); // an initializer list of pointers
    return Eval.pointer(Init);
  }

  /// Stores \p V into the lvalue \p LHS: a strong update of a local pointer,
  /// a weak update (join) of an element of a local array of pointers.
  void assign(const Expr *LHS, PointerValue V, State &S) const {
    LHS = LHS->IgnoreParenImpCasts();
    if (const VarDecl *VD = asTrackedLocal(LHS)) {
      if (!VD->getType()->isArrayType())
        S.Vars.insert_or_assign(VD, std::move(V));
      return;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS))
      if (const VarDecl *VD = asTrackedLocal(ASE->getBase()))
        if (VD->getType()->isArrayType())
          S.Vars.insert_or_assign(VD, PointerValue::join(S.get(VD), V));
  }

  void call(const CallExpr *Call, State &S) const {
    Evaluator Eval(S, Escaped);
    const ApiSpec *Api = lookupApi(Call);
    if (Api && Api->Kind == ApiKind::Allocate) {
      if (const Expr *Out = Api->arg(Call, ArgRole::Out)) {
        if (const Expr *Target = addressOfOperand(Out))
          assign(Target, PointerValue::known(*Api->Memory, Call), S);
        return;
      }
    }
    if (Api &&
        (Api->Kind == ApiKind::Register || Api->Kind == ApiKind::Unregister)) {
      // cudaHostRegister page-locks the allocation the pointer points into;
      // cudaHostUnregister releases it.
      if (const Expr *Ptr = Api->arg(Call, ArgRole::Ptr)) {
        PointerValue V = Eval.pointer(Ptr);
        if (V.isKnown())
          for (Origin O : V.origins())
            S.Registered[O.getOpaqueValue()] = Api->Kind == ApiKind::Register
                                                   ? Registration::Yes
                                                   : Registration::No;
      }
      return;
    }
    // Any other call may store through '&p' or a non-const reference to p.
    const FunctionDecl *FD = Call->getDirectCallee();
    unsigned ParamOffset =
        isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(FD)
            ? 1
            : 0;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (const Expr *Target = addressOfOperand(Arg)) {
        if (const VarDecl *VD = asTrackedLocal(Target))
          S.Vars.insert_or_assign(VD, PointerValue::unknown());
        continue;
      }
      if (!FD || I < ParamOffset || I - ParamOffset >= FD->getNumParams())
        continue;
      QualType ParamT = FD->getParamDecl(I - ParamOffset)->getType();
      if (ParamT->isReferenceType() &&
          !ParamT.getNonReferenceType().isConstQualified())
        if (const VarDecl *VD = asTrackedLocal(Arg))
          S.Vars.insert_or_assign(VD, PointerValue::unknown());
    }
  }

  const llvm::DenseSet<const VarDecl *> &Escaped;
};

} // namespace

FunctionProvenance::FunctionProvenance(const FunctionDecl *FD,
                                       ASTContext &Ctx) {
  Stmt *Body = FD->getBody();
  if (!Body)
    return;
  EscapeFinder Finder;
  Finder.TraverseStmt(Body);
  Escaped = std::move(Finder.Escaped);

  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Cfg = CFG::buildCFG(FD, Body, &Ctx, Options);
  if (!Cfg)
    return;
  ProvenanceDataflow Dataflow(Escaped);
  std::vector<std::optional<ProvenanceState>> In = solveForward(*Cfg, Dataflow);
  // Reporting pass: replay each reached block from its fixpoint in-state.
  for (const CFGBlock *B : *Cfg) {
    const std::optional<ProvenanceState> &BlockIn = In[B->getBlockID()];
    if (!BlockIn)
      continue;
    ProvenanceState S = *BlockIn;
    for (const CFGElement &E : *B) {
      Dataflow.snapshot(E, S, StateAtCall);
      Dataflow.transfer(E, S);
    }
  }
}

FunctionProvenance::~FunctionProvenance() = default;

HostProvenance FunctionProvenance::pointerAt(const CallExpr *Call,
                                             const Expr *Ptr) const {
  auto It = StateAtCall.find(Call);
  if (It == StateAtCall.end() || !Ptr)
    return {};
  PointerValue V = Evaluator(It->second, Escaped).pointer(Ptr);
  if (!V.isKnown())
    return {};
  HostProvenance Result{V.kind(), {V.origins().begin(), V.origins().end()}};
  if (V.kind() != MemoryKind::Pageable)
    return Result;
  // Pageable memory is registered only if every allocation it may point
  // into is registered on every path.
  unsigned Registered = 0;
  for (Origin O : V.origins()) {
    Registration R = It->second.registration(O);
    if (R == Registration::Maybe)
      return {};
    Registered += R == Registration::Yes;
  }
  if (Registered == V.origins().size())
    Result.Kind = MemoryKind::Registered;
  else if (Registered != 0)
    return {};
  return Result;
}

const FunctionProvenance &ProvenanceCache::get(const FunctionDecl *FD,
                                               ASTContext &Ctx) {
  std::unique_ptr<FunctionProvenance> &Slot = Functions[FD];
  if (!Slot)
    Slot = std::make_unique<FunctionProvenance>(FD, Ctx);
  return *Slot;
}

/// How an allocating call is spelled in a note: 'malloc', 'new[]', ...
static std::string allocatorName(const Stmt *S) {
  if (const auto *New = dyn_cast<CXXNewExpr>(S))
    return New->isArray() ? "new[]" : "new";
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return (FD->isInStdNamespace() ? "std::" : "") + FD->getNameAsString();
  return "";
}

OriginNote describeOrigin(Origin O, MemoryKind K) {
  std::string Kind = memoryKindName(K).str();
  if (const auto *S = O.dyn_cast<const Stmt *>()) {
    if (isa<StringLiteral>(S))
      return {S->getBeginLoc(), "string literal storage is " + Kind};
    return {S->getBeginLoc(),
            Kind + " memory allocated here with '" + allocatorName(S) + "'"};
  }
  const auto *VD = cast<VarDecl>(cast<const Decl *>(O));
  std::string Name = "'" + VD->getNameAsString() + "'";
  if (isPageableContainer(VD->getType()))
    return {VD->getLocation(),
            "the storage of " + Name + " is " + Kind + " memory"};
  if (K != MemoryKind::Pageable)
    return {VD->getLocation(), Name + " is a " + Kind + " variable"};
  if (VD->hasLocalStorage())
    return {VD->getLocation(),
            Name + " is a local variable: its storage is " + Kind + " memory"};
  return {VD->getLocation(), Name + " has static storage: " + Kind + " memory"};
}

} // namespace cuda_async_lint
