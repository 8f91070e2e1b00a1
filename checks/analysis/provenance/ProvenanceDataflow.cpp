//===- ProvenanceDataflow.cpp - The transfer functions --------------------===//

#include "ProvenanceDataflow.h"
#include "CallEffects.h"
#include "ProvenanceExpressions.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/NullTests.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace cuda_async_lint::provenance {

namespace {

/// Forgets what this function stored into the fields of \p Base's object.
void forgetMembers(ProvenanceState &S, const VarDecl *Base) {
  for (auto It = S.Members.begin(); It != S.Members.end();)
    It = It->first.first == Base ? S.Members.erase(It) : std::next(It);
}

/// Forgets every field stored through a pointer: a call or a store through
/// another expression may have written them through an alias.
void forgetAliasedMembers(ProvenanceState &S, const FieldDecl *Only = nullptr) {
  for (auto It = S.Members.begin(); It != S.Members.end();)
    It = It->first.first->getType()->isPointerType() &&
                 (!Only || It->first.second == Only)
             ? S.Members.erase(It)
             : std::next(It);
}

} // namespace

ProvenanceDataflow::State ProvenanceDataflow::entryState() const {
  State S;
  S.Registered = RegistrationFacts(&Allocations);
  if (Summaries)
    for (const VarDecl *VD : Globals)
      if (Summaries->tracksGlobal(VD))
        S.Vars.insert_or_assign(VD, Summaries->globalAtEntry(VD, Function));
  return S;
}

void ProvenanceDataflow::join(State &Into, const State &From) const {
  Into.join(From);
}

Evaluator ProvenanceDataflow::evaluator(const State &S) const {
  return Evaluator(S, Escaped, PointerTables, Summaries, Function);
}

void ProvenanceDataflow::transfer(const CFGElement &Element, State &S) const {
  // A local whose scope ended can never be read again (escaped locals are
  // never read from the state): dropping it keeps the state as small as
  // the variables in scope, not every variable of the function.
  if (std::optional<CFGLifetimeEnds> End = Element.getAs<CFGLifetimeEnds>()) {
    S.Vars.erase(End->getVarDecl());
    forgetMembers(S, End->getVarDecl());
    return;
  }
  std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *St = CS->getStmt();
  Evaluator Eval = evaluator(S);
  // Memory just allocated is not registered.
  if (Allocations.contains(St))
    S.Registered.set(St, RegistrationFact::fresh());
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->hasLocalStorage() && isTrackedType(VD->getType()))
          S.Vars.insert_or_assign(VD, initialValue(VD, Eval));
        if (isLocalObjectArray(VD))
          startObjectArray(VD, S);
      }
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

void ProvenanceDataflow::assume(llvm::ArrayRef<FixedFlag> Flags,
                                unsigned Values) {
  Assumed = Flags;
  AssumedValues = Values;
}

bool ProvenanceDataflow::transferEdge(const CFGBlock &From, unsigned SuccIndex,
                                      State &S) const {
  for (size_t I = 0; I < Assumed.size(); ++I)
    if (!Assumed[I].feasible(From, SuccIndex, AssumedValues >> I & 1))
      return false;
  const Expr *Cond = branchCondition(From);
  if (!Cond)
    return true;
  // The edge where an allocation's pointer is null ('if (!p) goto
  // cleanup;'): it failed, there is nothing to register, and a cleanup
  // label that edge reaches sees the other paths' registration.
  if (std::optional<NullTest> Null = nullTest(Cond, Function->getASTContext());
      Null && SuccIndex == Null->NullEdge) {
    for (const void *Key : evaluator(S).registrationKeys(Null->Pointer))
      S.Registered.unmake(Key);
    return true;
  }
  // The edge where the result is not cudaSuccess: the true branch of
  // 'if (result)'.
  std::optional<ResultTest> Test = resultTest(Cond);
  if (!Test || Test->Code != CudaErrorCode::Success)
    return true;
  unsigned FailureEdge = Test->TrueIfEqual ? 1 : 0;
  const Expr *Result = Test->Result;
  const CallExpr *Register = registerResult(Result, RegisterResults);
  if (!Register || SuccIndex != FailureEdge)
    return true;
  // Not registered there: for an allocation of this function's, as if it
  // failed (the error path's cleanup sees the registered path's fact);
  // for other memory, No.
  if (const Expr *Ptr = lookupApi(Register)->arg(Register, ArgRole::Ptr))
    for (const void *Key :
         evaluator(S).registrationKeys(Ptr, &S.RegistrationAnswers)) {
      S.Registered.set(Key, RegistrationFact{});
      S.Registered.unmake(Key);
    }
  return true;
}

std::optional<PointerValue>
ProvenanceDataflow::storedThrough(const CallExpr *Call, unsigned Arg) const {
  const ApiSpec *Api = lookupApi(Call);
  if (Api && Api->Kind == ApiKind::Allocate) {
    std::optional<unsigned> Out = Api->argIndex(ArgRole::Out);
    if (Out && *Out == Arg)
      return PointerValue::known(*Api->Memory, Call);
    return std::nullopt;
  }
  const FunctionDecl *FD = Call->getDirectCallee();
  if (Api || !FD || !Summaries)
    return std::nullopt;
  const FunctionSummary *Summary = Summaries->summary(FD);
  std::optional<unsigned> P = parameterIndex(Call, FD, Arg);
  if (P)
    Summaries->noteOutParam(FD, *P);
  if (!Summary || !P || *P >= Summary->OutParams.size())
    return std::nullopt;
  return Summary->OutParams[*P];
}

void ProvenanceDataflow::startObjectArray(const VarDecl *VD, State &S) const {
  const RecordDecl *RD =
      VD->getType()->getPointeeOrArrayElementType()->getAsRecordDecl();
  const auto *CXX = dyn_cast_or_null<CXXRecordDecl>(RD);
  if (!RD || (CXX && !CXX->hasTrivialDefaultConstructor()))
    return;
  if (const Expr *Init = VD->getInit()) {
    Init = Init->IgnoreParenImpCasts();
    const auto *List = dyn_cast<InitListExpr>(Init);
    const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
    if (!(List && List->getNumInits() == 0) &&
        !(Construct && Construct->getConstructor()->isTrivial()) &&
        !isa<ImplicitValueInitExpr>(Init))
      return;
  }
  for (const FieldDecl *FD : RD->fields())
    if (isSummarizedField(FD))
      S.Members.insert_or_assign({VD, FD}, PointerValue::unset());
}

PointerValue ProvenanceDataflow::initialValue(const VarDecl *VD,
                                              const Evaluator &Eval) const {
  const Expr *Init = VD->getInit();
  if (!Init)
    return PointerValue::unset();
  if (isSmartPointer(VD->getType()))
    return Eval.smartPointerSource(Init);
  if (VD->getType()->isArrayType())
    return PointerValue::unknown(); // an initializer list of pointers
  return Eval.pointer(Init);
}

void ProvenanceDataflow::assign(const Expr *LHS, PointerValue V,
                                State &S) const {
  LHS = LHS->IgnoreParenImpCasts();
  // A global this function tracks: a strong update of a pointer, a weak
  // one of an element of an array of pointers.
  if (const auto *VD = dyn_cast_or_null<VarDecl>(summarizedVariable(LHS))) {
    if (Summaries && Summaries->tracksGlobal(VD))
      S.Vars.insert_or_assign(
          VD, VD->getType()->isArrayType()
                  ? PointerValue::join(evaluator(S).global(VD), V)
                  : std::move(V));
    return;
  }
  if (const VarDecl *VD = asTrackedLocal(LHS)) {
    if (!VD->getType()->isArrayType())
      S.Vars.insert_or_assign(VD, std::move(V));
    // Another object now: what was stored through it is not its.
    forgetMembers(S, VD);
    return;
  }
  if (const FieldDecl *FD = userPointerField(LHS)) {
    std::optional<ObjectMember> M = objectMember(LHS);
    // A store through any other pointer may write the same object.
    if (!M || M->Arrow)
      forgetAliasedMembers(S, FD);
    if (M && !Escaped.count(M->Base)) {
      if (M->Element) {
        auto It = S.Members.find({M->Base, M->Field});
        V = PointerValue::join(It != S.Members.end() ? It->second
                               : Summaries ? Summaries->stored(M->Field)
                                           : PointerValue::unknown(),
                               V);
      }
      S.Members.insert_or_assign({M->Base, M->Field}, std::move(V));
    }
    return;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS)) {
    if (const VarDecl *VD = asTrackedLocal(ASE->getBase())) {
      if (VD->getType()->isArrayType())
        S.Vars.insert_or_assign(VD, PointerValue::join(S.get(VD), V));
      // A table of pointers: one value for its elements, as an array's.
      if (PointerTables.count(VD))
        S.storeElement(VD, std::move(V));
      return;
    }
    if (const ParmVarDecl *PD = evaluator(S).outParameter(ASE->getBase()))
      S.Pointees.insert_or_assign(PD, std::move(V));
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LHS)) {
    if (UO->getOpcode() == UO_Deref)
      if (const ParmVarDecl *PD = evaluator(S).outParameter(UO->getSubExpr()))
        S.Pointees.insert_or_assign(PD, std::move(V));
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
    if (const auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (PD->getType()->isReferenceType() && isOutParameterType(PD->getType()))
        S.Pointees.insert_or_assign(PD, std::move(V));
}

void ProvenanceDataflow::storeThrough(const Expr *Arg, bool ByReference,
                                      PointerValue V, State &S) const {
  if (ByReference) {
    assign(Arg, std::move(V), S);
    return;
  }
  if (const Expr *Target = addressOfOperand(Arg)) {
    assign(Target, std::move(V), S);
    return;
  }
  if (const ParmVarDecl *PD = evaluator(S).outParameter(Arg))
    S.Pointees.insert_or_assign(PD, std::move(V));
}

void ProvenanceDataflow::setRegistration(const Expr *Ptr, Registration R,
                                         const CallExpr *By, State &S) const {
  setRegistration(evaluator(S).registrationKeys(Ptr, &S.RegistrationAnswers), R,
                  By, S);
}

void ProvenanceDataflow::setRegistration(llvm::ArrayRef<const void *> Keys,
                                         Registration R, const CallExpr *By,
                                         State &S) const {
  // Unregistering memory the analysis cannot name may unregister any.
  if (Keys.empty() && R == Registration::No)
    forgetRegistrations(S);
  for (const void *Key : Keys)
    S.Registered.set(
        Key, RegistrationFact{R, R == Registration::Yes ? By : nullptr});
}

void ProvenanceDataflow::forgetRegistrations(State &S) {
  S.Registered.yesToMaybe();
  S.Registered.set(UnknownUnregistration,
                   RegistrationFact{Registration::Maybe});
}

void ProvenanceDataflow::call(const CallExpr *Call, State &S) const {
  const ApiSpec *Api = lookupApi(Call);
  const FunctionDecl *FD = Call->getDirectCallee();
  if (Api &&
      (Api->Kind == ApiKind::Register || Api->Kind == ApiKind::Unregister)) {
    // cudaHostRegister page-locks the allocation the pointer points into;
    // cudaHostUnregister releases it.
    if (const Expr *Ptr = Api->arg(Call, ArgRole::Ptr))
      setRegistration(Ptr,
                      Api->Kind == ApiKind::Register ? Registration::Yes
                                                     : Registration::No,
                      Call, S);
    return;
  }
  // A call may write the fields of any object it can reach: through a
  // pointer it is given or one that aliases it, or a local object passed
  // by address or reference, or whose method it is.
  if (!S.Members.empty()) {
    // The CUDA API writes no pointer fields but through the out-parameter
    // of an allocator (storedThrough).
    if (!Api)
      forgetAliasedMembers(S);
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      const Expr *Object = addressOfOperand(Arg);
      const VarDecl *VD = asLocalObject(Object ? Object : Arg);
      if (!VD)
        continue;
      // Unless the callee only reads the fields or writes through them.
      std::optional<unsigned> P =
          FD && !Api ? parameterIndex(Call, FD, I) : std::nullopt;
      if (!P || FieldStores.mayStore(FD, *P))
        forgetMembers(S, VD);
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const VarDecl *VD = asLocalObject(MC->getImplicitObjectArgument()))
        forgetMembers(S, VD);
  }
  const FunctionSummary *Summary =
      !Api && FD && Summaries ? Summaries->summary(FD) : nullptr;
  // What the call does to each argument (CallEffects.h), from what the
  // caller knows of each before the call: its shape.
  CallShape Shape;
  Shape.OpaqueWithoutSummary =
      !Api && Summaries && (!FD || Summaries->isOpaque(FD));
  // The answers of the values whose keys the shape looked at: which
  // registrations the call writes depends on them.
  ProgramAnswers Keying;
  // Whether the callee may store a pointer through an argument.
  bool StoresThrough = false;
  std::vector<bool> ByReference(Call->getNumArgs());
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    std::optional<unsigned> P = FD ? parameterIndex(Call, FD, I) : std::nullopt;
    QualType Param = P ? FD->getParamDecl(*P)->getType() : QualType();
    ByReference[I] = P && Param->isReferenceType();
    // A number names no memory: no registration of it to read.
    bool Scalar =
        Arg->getType()->isArithmeticType() || Arg->getType()->isEnumeralType();
    ArgumentShape A{
        P, Arg->getType()->isPointerType(),
        !Scalar && (FD ? evaluator(S).registrationRead(Arg, FD, Keying)
                       : !evaluator(S).registrationKeys(Arg, &Keying).empty()),
        isClobberable(Arg, P && bindsArgumentForWriting(FD, *P))};
    StoresThrough |= A.Clobberable || (P && isOutParameterType(Param));
    Shape.Args.push_back(A);
  }
  // A callee of another unit: the answer to what this call does is
  // recorded where what it changed is read: a pointer it stores through
  // an argument (the question is recorded now), a registration (the
  // state carries the answer to every registration lookup).
  std::optional<unsigned> Answer =
      !Api && FD && Summaries
          ? Summaries->callAnswer(FD, Shape, /*Now=*/StoresThrough)
          : std::nullopt;
  addAnswers(S.RegistrationAnswers, Keying);
  if (Answer)
    addAnswers(S.RegistrationAnswers, {*Answer});
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    ArgumentEffect E;
    if (Api) {
      // The CUDA API stores only through an allocator's out-parameter, and
      // a device alias of mapped memory: page-locked (else the call fails).
      std::optional<unsigned> Out = Api->argIndex(ArgRole::Out);
      if (Api->Kind == ApiKind::DevicePointer && Out && *Out == I)
        E.Stores = PointerValue::known(MemoryKind::Pinned, Call);
      else if (std::optional<PointerValue> Stored = storedThrough(Call, I))
        E.Stores = std::move(Stored);
      else
        E.Clobbers = Shape.Args[I].Clobberable;
    } else {
      E = argumentEffect(Summary, Shape.OpaqueWithoutSummary, Shape.Args[I]);
    }
    if (E.Stores)
      storeThrough(Arg, ByReference[I],
                   Answer ? E.Stores->madeFrom({*Answer}) : *E.Stores, S);
    if (E.Registers)
      setRegistration(Arg, *E.Registers, Call, S);
    if (E.Clobbers)
      clobber(Arg, S);
  }
  if (Summary) {
    // A summary of this unit carries the answers its registrations were
    // made from.
    addAnswers(S.RegistrationAnswers, Summary->RegistrationAnswers);
    if (Summary->ExitRegistration.count(UnknownUnregistration))
      forgetRegistrations(S);
    for (const auto &[Key, Fact] : Summary->ExitRegistration)
      S.Registered.set(Key, Fact);
    for (const auto &[VD, R] : Summary->RegistersGlobal)
      setRegistration(
          evaluator(S).globalRegistrationKeys(VD, S.RegistrationAnswers), R,
          Call, S);
  }
  // A function of this unit may store into the globals it tracks; the
  // rest of the program cannot name them (SummaryProvider::tracksGlobal).
  // Only globals this function names enter its state: look those up, in
  // the state's order, rather than walk every local in scope at each call.
  if (!Api && Summaries) {
    llvm::SmallVector<const VarDecl *, 4> Tracked;
    for (const VarDecl *VD : Globals)
      if (S.Vars.count(VD))
        Tracked.push_back(VD);
    llvm::sort(Tracked, std::less<const VarDecl *>());
    for (const VarDecl *VD : Tracked)
      if (!FD || Summaries->mayStoreGlobal(FD, VD))
        S.Vars.insert_or_assign(VD, Summaries->stored(VD));
  }
}

} // namespace cuda_async_lint::provenance
