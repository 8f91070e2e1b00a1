//===- ProvenanceRecorder.cpp - What the last pass keeps ------------------===//

#include "ProvenanceRecorder.h"
#include "ProvenanceExpressions.h"
#include "api/CudaApiCatalog.h"
#include "summaries/Summarize.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace cuda_async_lint::provenance {

namespace {

/// The part of \p S that evaluating pointers within \p At can read: the
/// variables \p At names, their members, and the registration facts of
/// what they may point to. A copy of the whole state at every call would
/// make long functions quadratic.
static ProvenanceState snapshotFor(const ProvenanceState &S, const Stmt *At) {
  llvm::SmallPtrSet<const VarDecl *, 8> Named;
  // Registration keys: origins (allocations, variables) and parameters.
  llvm::SmallPtrSet<const void *, 16> Keys;
  llvm::SmallVector<const Stmt *, 16> Work{At};
  while (!Work.empty()) {
    const Stmt *Cur = Work.pop_back_val();
    if (!Cur)
      continue;
    Keys.insert(Origin(Cur).getOpaqueValue());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Cur))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        Named.insert(VD->getCanonicalDecl()); // Globals are kept so.
        // A lambda given to a kernel holds copies of what it captures.
        if (const auto *Closure = VD->getType()->getAsCXXRecordDecl();
            Closure && Closure->isLambda())
          for (const LambdaCapture &C : Closure->captures())
            if (C.capturesVariable())
              if (const auto *Var = dyn_cast<VarDecl>(C.getCapturedVar()))
                Named.insert(Var->getCanonicalDecl());
      }
    llvm::append_range(Work, Cur->children());
  }
  ProvenanceState Part;
  auto Keep = [&](const PointerValue &V) {
    for (Origin O : V.peekOrigins())
      Keys.insert(O.getOpaqueValue());
  };
  for (const VarDecl *VD : Named) {
    Keys.insert(VD);
    Keys.insert(Origin(static_cast<const Decl *>(VD)).getOpaqueValue());
    if (auto It = S.Vars.find(VD); It != S.Vars.end()) {
      Part.Vars.insert(*It);
      Keep(It->second);
    }
    if (auto It = S.Pointees.find(VD); It != S.Pointees.end()) {
      Part.Pointees.insert(*It);
      Keep(It->second);
    }
  }
  for (const auto &Entry : S.Members)
    if (Named.count(Entry.first.first)) {
      Part.Members.insert(Entry);
      Keep(Entry.second);
    }
  Part.Registered = S.Registered.only(Keys);
  Part.RegistrationAnswers = S.RegistrationAnswers;
  return Part;
}

/// A function defined in user code of this translation unit with a pointer
/// parameter.
bool takesPointersHere(const FunctionDecl *FD) {
  if (!FD || !FD->hasBody())
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return false;
  // A kernel given a struct may work on what its pointer members point to
  // (KernelWork.cpp).
  bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
  return llvm::any_of(FD->parameters(), [&](const ParmVarDecl *P) {
    return P->getType()->isPointerType() ||
           (Kernel && P->getType()->isRecordType());
  });
}

} // namespace

void Recorder::observe(const CFGElement &Element, const ProvenanceState &S) {
  Evaluator Eval = Dataflow.evaluator(S);
  if (std::optional<CFGInitializer> CI = Element.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *Init = CI->getInitializer();
    if (const FieldDecl *FD = Init->getAnyMember())
      if (isSummarizedField(FD))
        store(FD, Init->getInit(), Eval);
    return;
  }
  std::optional<CFGStmt> CS = Element.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *St = CS->getStmt();
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    // What a CUDA call is given, and what a function of this unit that
    // takes pointers is given: it may leave a copy of it in flight
    // (ParameterTransfers.cpp), unless the memory is pageable.
    if (lookupApi(Call) || takesPointersHere(Call->getDirectCallee()))
      record(Call, S);
    // What a call of a function whose callers are all here (or in the
    // program's summaries) passes in pointers: the callee's parameters
    // may take it (parameter()).
    if (takesCallSiteProvenance(Call->getDirectCallee()) ||
        (ProgramCalls && takesProgramCallSites(Call->getDirectCallee()))) {
      std::vector<PointerValue> Values;
      for (const Expr *Arg : Call->arguments())
        Values.push_back(Arg->getType()->isPointerType()
                             ? Eval.pointer(Arg)
                             : PointerValue::unknown());
      // Another run (a value of a fixed flag) passed these too.
      auto [It, New] = Arguments.try_emplace(Call, Values);
      if (!New)
        for (size_t I = 0; I < Values.size(); ++I)
          It->second[I] = PointerValue::join(It->second[I], Values[I]);
    }
    // '&field' or '&global' handed to a call: stored through, or escaped.
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (const Expr *Target = addressOfOperand(Call->getArg(I)))
        if (const ValueDecl *D = summarizedVariable(Target))
          store(D, Dataflow.storedThrough(Call, I).value_or(
                       PointerValue::unknown()));
    return;
  }
  if (isa<CXXDeleteExpr>(St)) {
    record(St, S);
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(St)) {
    if (const Expr *Value = Return->getRetValue())
      if (Value->getType()->isPointerType())
        Returns = PointerValue::join(Returns, Eval.pointer(Value));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->getOpcode() == BO_Assign)
      if (const ValueDecl *D = summarizedVariable(BO->getLHS()))
        store(D, BO->getRHS(), Eval);
    return;
  }
  if (const auto *List = dyn_cast<InitListExpr>(St)) {
    const RecordDecl *RD = List->getType()->getAsRecordDecl();
    if (!RD || List->isTransparent())
      return;
    unsigned I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= List->getNumInits())
        break;
      const Expr *Init = List->getInit(I++);
      if (isSummarizedField(FD))
        store(FD, Eval.pointer(Init));
    }
  }
}

void Recorder::record(const Stmt *At, const ProvenanceState &S) {
  ProvenanceState Part = snapshotFor(S, At);
  auto [It, New] = StateAt.try_emplace(At, Part);
  if (!New)
    Dataflow.join(It->second, Part);
}

void Recorder::store(const ValueDecl *D, const Expr *Value,
                     const Evaluator &Eval) {
  if (summarizedVariable(Value) == D)
    return;
  store(D, Eval.pointer(Value));
}

void Recorder::store(const ValueDecl *D, PointerValue V) {
  auto It = Stores.find(D);
  Stores.insert_or_assign(
      D, PointerValue::join(
             It == Stores.end() ? PointerValue::unset() : It->second, V));
}

} // namespace cuda_async_lint::provenance
