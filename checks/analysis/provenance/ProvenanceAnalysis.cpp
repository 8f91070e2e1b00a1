//===- ProvenanceAnalysis.cpp - Provenance across a TU --------------------===//

#include "ProvenanceAnalysis.h"
#include "StoreSites.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/code/UnitShared.h"
#include "api/CudaApiCatalog.h"
#include "api/HostCommunication.h"
#include "api/StreamRef.h"
#include "summaries/Summarize.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

bool isVirtualDispatch(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
         !MD->getParent()->hasAttr<FinalAttr>();
}

ProvenanceAnalysis::ProvenanceAnalysis(ASTContext &Ctx)
    : Ctx(Ctx), Program(Ctx.getSourceManager()) {}

std::shared_ptr<ProvenanceAnalysis>
ProvenanceAnalysis::forTranslationUnit(ASTContext &Ctx) {
  return unitShared<ProvenanceAnalysis>(Ctx);
}

const FunctionDecl *
ProvenanceAnalysis::definition(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return nullptr;
  return Def;
}

const FunctionProvenance &ProvenanceAnalysis::function(const FunctionDecl *FD) {
  const FunctionDecl *Def = definition(FD);
  if (!Def)
    Def = FD;
  auto It = Functions.find(Def);
  // An analysis that read a global or field while a function storing it
  // was under way (a caller of this function, say) is made again, once, when
  // nothing is under way.
  bool Again =
      It != Functions.end() && InProgress.empty() && Provisional.erase(Def);
  if (It != Functions.end() && !Again)
    return *It->second;
  unsigned Before = IncompleteAnswers;
  InProgress.insert(Def);
  auto Analysis = std::make_unique<FunctionProvenance>(Def, Ctx, this);
  InProgress.erase(Def);
  if (IncompleteAnswers != Before && !Again)
    Provisional.insert(Def);
  // The analysis made again replaces the first, which stays alive for
  // whoever still reads it (a check in the middle of its pointerAt).
  std::unique_ptr<FunctionProvenance> &Slot = Functions[Def];
  if (Slot)
    Superseded.push_back(std::move(Slot));
  return *(Slot = std::move(Analysis));
}

bool ProvenanceAnalysis::isOpaque(const FunctionDecl *FD) {
  // The C and C++ libraries and the CUDA headers' inline functions do not
  // pin memory; kernels cannot.
  if (Ctx.getSourceManager().isInSystemHeader(FD->getLocation()) ||
      FD->hasAttr<CUDAGlobalAttr>())
    return false;
  // Nor do MPI's sends, receives and collectives, whose header a project
  // includes with -I (mpicxx does) rather than as a system header.
  if (lookupHostCommunication(FD))
    return false;
  // One of another unit without facts in the program, too (a summary, if
  // the program has one, comes first).
  const FunctionDecl *Def = definition(FD);
  return !Def || isVirtualDispatch(FD) || InProgress.count(Def);
}

bool ProvenanceAnalysis::fromProgram(const FunctionDecl *FD) const {
  return !definition(FD) && !isVirtualDispatch(FD);
}

std::optional<unsigned> ProvenanceAnalysis::callAnswer(const FunctionDecl *FD,
                                                       const CallShape &Shape,
                                                       bool Now) {
  if (!fromProgram(FD))
    return std::nullopt;
  return Program.answerNumber(FD, ProgramQuestion::Kind::CallEffect, Now,
                              Shape.text());
}

const RegistrationReads &ProvenanceAnalysis::reads(const FunctionDecl *FD) {
  return *Reads.get(FD, [&](const FunctionDecl *F) {
    const auto &CallsTo = sites().CallsTo;
    return std::make_unique<RegistrationReads>(
        F, CallsTo.count(F->getCanonicalDecl()) != 0);
  });
}

/// A stream or event handle is no host memory: what a call may do to its
/// registration is read by nothing.
static bool isHandle(const Expr *Arg) {
  return isStreamType(Arg->getType()) || isEventType(Arg->getType());
}

bool ProvenanceAnalysis::originRegistrationRead(Origin O, const Expr *Arg,
                                                const FunctionDecl *Caller,
                                                const FunctionDecl *Callee) {
  if (!fromProgram(Callee) || !Caller)
    return true;
  if (isHandle(Arg))
    return false;
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return !allocatedWithin(S, Arg);
  if (const auto *D = O.dyn_cast<const Decl *>())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return reads(Caller).storageRead(VD);
  return true;
}

bool ProvenanceAnalysis::parameterRegistrationRead(const ParmVarDecl *PD,
                                                   const Expr *Arg,
                                                   const FunctionDecl *Caller,
                                                   const FunctionDecl *Callee) {
  if (!fromProgram(Callee) || !Caller)
    return true;
  return !isHandle(Arg) && reads(Caller).parameterRead(PD);
}

std::optional<unsigned>
ProvenanceAnalysis::returnAnswer(const FunctionDecl *FD) {
  if (!fromProgram(FD))
    return std::nullopt;
  return Program.answerNumber(FD, ProgramQuestion::Kind::Returns,
                              /*Now=*/false);
}

void ProvenanceAnalysis::noteOutParam(const FunctionDecl *FD, unsigned Param) {
  if (fromProgram(FD))
    Program.note(FD, ProgramQuestion::Kind::OutParam, "", Param);
}

const FunctionSummary *ProvenanceAnalysis::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = definition(FD);
  if (fromProgram(FD))
    if (const FunctionFacts *Facts = Program.facts(FD))
      return &Facts->Summary;
  if (!Def || isVirtualDispatch(FD) || InProgress.count(Def) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  return &function(Def).summary();
}

bool ProvenanceAnalysis::writtenOnlyByMain(const VarDecl *VD) {
  if (!FlagsOfMain)
    FlagsOfMain.emplace(Ctx);
  return FlagsOfMain->contains(VD);
}

const ProvenanceAnalysis::Sites &ProvenanceAnalysis::sites() {
  if (!Index) {
    Index.emplace();
    findStoreSites(Ctx, *Index);
  }
  return *Index;
}

PointerValue ProvenanceAnalysis::localStores(const ValueDecl *D, bool &Escaped,
                                             bool &Incomplete,
                                             const FunctionDecl *Except) {
  const Sites &S = sites();
  Escaped = S.Escaped.count(D);
  PointerValue Value = PointerValue::unset();
  auto StoresIt = S.Stores.find(D);
  if (Escaped || StoresIt == S.Stores.end())
    return Value;
  for (const FunctionDecl *Storer : StoresIt->second) {
    if (Storer == Except)
      continue;
    if (InProgress.count(Storer)) {
      Incomplete = true;
      return PointerValue::unknown();
    }
    const auto &Stores = function(Storer).stores();
    if (auto It = Stores.find(D); It != Stores.end())
      Value = PointerValue::join(Value, It->second);
  }
  return Value;
}

bool storedOnlyHere(const VarDecl *VD, const SourceManager &SM) {
  if (!VD->isExternallyVisible())
    return true;
  if (!VD->getDefinition())
    return false;
  return llvm::all_of(VD->redecls(), [&](const VarDecl *R) {
    return SM.isInMainFile(SM.getExpansionLoc(R->getLocation()));
  });
}

PointerValue ProvenanceAnalysis::stored(const ValueDecl *D) {
  if (auto It = Variables.find(D); It != Variables.end())
    return It->second;
  // A variable whose stores depend on its own value (directly or through
  // other variables) is unknown.
  if (!VariablesInProgress.insert(D).second) {
    ++IncompleteAnswers;
    return PointerValue::unknown();
  }
  bool Escaped = false, Incomplete = false;
  PointerValue Value = localStores(D, Escaped, Incomplete);
  if (Escaped)
    Value = PointerValue::unknown();
  // The stores of the program's other units, into a field of a type they
  // share. A global is summarized only where no other unit can name it.
  const auto *Record = dyn_cast<RecordDecl>(D->getDeclContext());
  if (const auto *Global = dyn_cast<VarDecl>(D)) {
    if (!storedOnlyHere(Global, Ctx.getSourceManager()))
      Value = PointerValue::unknown();
  } else if (Program && !Value.peekTop() && Record &&
             Record->isExternallyVisible()) {
    // Only a value this unit has not made top can learn from the others'
    // stores (and only then is the question asked); where this unit
    // stores nothing, what the others' stores alone make it. (Which
    // question is asked depends on this unit's value, which carries its
    // own answers into the result.)
    if (std::string Usr = usrOf(D); !Usr.empty())
      Value = Value.peekTag() == PointerValue::Tag::Unset
                  ? Program.stored(Usr).madeFrom(Value.answersAsChosen())
                  : PointerValue::join(Value, Program.field(Usr));
  }
  // Never stored on a reachable path: nothing to say.
  if (Value.peekTag() == PointerValue::Tag::Unset)
    Value = PointerValue::unknownForUnset(Value);
  VariablesInProgress.erase(D);
  // Asked while a function that stores it is being analysed (a call's
  // argument evaluated in its own body): unknown now, not for good.
  if (!Incomplete)
    Variables.insert({D, Value});
  else
    ++IncompleteAnswers;
  return Value;
}

const llvm::DenseSet<const FunctionDecl *> &
ProvenanceAnalysis::writers(const VarDecl *VD) {
  auto [It, New] = Writers.try_emplace(VD);
  if (!New)
    return It->second;
  llvm::DenseSet<const FunctionDecl *> Found;
  llvm::SmallVector<const FunctionDecl *, 8> Work;
  auto Add = [&](const FunctionDecl *F) {
    if (Found.insert(F->getCanonicalDecl()).second)
      Work.push_back(F->getCanonicalDecl());
  };
  const Sites &S = sites();
  if (auto Stores = S.Stores.find(VD); Stores != S.Stores.end())
    for (const FunctionDecl *Storer : Stores->second)
      Add(Storer);
  while (!Work.empty()) {
    const FunctionDecl *F = Work.pop_back_val();
    if (auto Calls = S.CallsTo.find(F); Calls != S.CallsTo.end())
      for (const auto &[Caller, Call] : Calls->second)
        Add(Caller);
  }
  return Writers[VD] = std::move(Found);
}

bool ProvenanceAnalysis::tracksGlobal(const VarDecl *VD) {
  const Sites &S = sites();
  if (S.Escaped.count(VD) || !storedOnlyHere(VD, Ctx.getSourceManager()))
    return false;
  // A writer called through a pointer (a callback, a lambda) may run in any
  // call.
  return llvm::none_of(writers(VD), [&](const FunctionDecl *F) {
    return S.NotOnlyCalled.count(F);
  });
}

bool ProvenanceAnalysis::mayStoreGlobal(const FunctionDecl *Callee,
                                        const VarDecl *VD) {
  return isVirtualDispatch(Callee) ||
         writers(VD).count(Callee->getCanonicalDecl());
}

PointerValue ProvenanceAnalysis::globalAtEntry(const VarDecl *VD,
                                               const FunctionDecl *FD) {
  if (!FD || !FD->isMain())
    return stored(VD);
  // main runs once, after the static initializers: the global holds null,
  // or what a function other than main stored.
  bool Escaped = false, Incomplete = false;
  PointerValue Value = localStores(VD, Escaped, Incomplete, FD);
  if (Incomplete)
    ++IncompleteAnswers;
  return Escaped ? PointerValue::unknown() : Value;
}

llvm::ArrayRef<Origin> ProvenanceAnalysis::registeredOrigins() {
  if (!RegisteredOrigins) {
    RegisteredOrigins.emplace();
    for (const auto &[Function, Call] : sites().RegisterCalls) {
      const ApiSpec *Api = lookupApi(Call);
      if (InProgress.count(Function) || !Api)
        continue;
      PointerValue V =
          function(Function).valueAt(Call, Api->arg(Call, ArgRole::Ptr));
      for (Origin Registered : V.origins()) {
        if (RegisteredOrigins->insert(Registered.getOpaqueValue()).second)
          RegisteredList.push_back(Registered);
        if (const auto *D = Registered.dyn_cast<const clang::Decl *>())
          if (const auto *VD = llvm::dyn_cast<clang::ValueDecl>(D))
            RegistersContainerStorage |= isPageableHeapContainer(VD->getType());
      }
    }
  }
  return RegisteredList;
}

bool ProvenanceAnalysis::registersContainerStorage() {
  (void)registeredOrigins();
  return RegistersContainerStorage || Program.registersContainerStorage();
}

bool ProvenanceAnalysis::registeredAnywhere(Origin O) {
  (void)registeredOrigins();
  // A vector behind a reference may be one a caller registered: where the
  // translation unit registers any container's storage, it stays open.
  if (const auto *D = O.dyn_cast<const clang::Decl *>())
    if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
      if (VD->getType()->isReferenceType() &&
          isPageableHeapContainer(VD->getType()) && registersContainerStorage())
        return true;
  if (RegisteredOrigins->count(O.getOpaqueValue()))
    return true;
  // Registered by another unit of the program.
  return Program && Program.registered(originKey(O, Ctx.getSourceManager()));
}

} // namespace cuda_async_lint
