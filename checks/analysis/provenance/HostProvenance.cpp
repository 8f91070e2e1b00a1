//===- HostProvenance.cpp - The provenance dataflow -----------------------===//

#include "HostProvenance.h"
#include "EscapeFinder.h"
#include "FixedFlag.h"
#include "ProvenanceRecorder.h"
#include "SwitchCorrelation.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace cuda_async_lint::provenance;

namespace cuda_async_lint {

SummaryProvider::~SummaryProvider() = default;

PointerValue SummaryProvider::parameter(const ParmVarDecl *) {
  return PointerValue::unknown();
}

static const char UnknownUnregistrationTag = 0;
const void *const UnknownUnregistration = &UnknownUnregistrationTag;

/// At most this many fixed flags split a function's analysis (2^N runs).
constexpr size_t MaxSplitFlags = 3;

FunctionProvenance::FunctionProvenance(const FunctionDecl *FD, ASTContext &Ctx,
                                       SummaryProvider *Summaries)
    : Summaries(Summaries), SM(&Ctx.getSourceManager()), Function(FD) {
  Stmt *Body = FD->getBody();
  if (!Body)
    return;
  EscapeFinder Finder;
  Finder.TraverseStmt(Body);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Finder.TraverseStmt(Init->getInit());
  Finder.finish();
  Escaped = std::move(Finder.Escaped);
  PointerTables = std::move(Finder.PointerTables);
  RegisterResults = std::move(Finder.RegisterResults);
  Allocations =
      std::make_unique<AllocationSites>(std::move(Finder.Allocations));

  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddInitializers = true;
  Options.AddLifetime = true;
  std::unique_ptr<CFG> Cfg = CFG::buildCFG(FD, Body, &Ctx, Options);
  if (!Cfg)
    return;
  ProvenanceDataflow Dataflow(Escaped, PointerTables, RegisterResults,
                              Summaries, FD, Finder.Globals.getArrayRef(),
                              *Allocations);
  // Flags tested twice with one value at every test split the analysis:
  // one run per combination of their values, where their tests take only
  // those values' edges, and what the runs record is joined.
  std::vector<FixedFlag> Flags = FixedFlag::find(
      FD, *Cfg, Ctx,
      [&](const VarDecl *VD) {
        return Summaries && Summaries->writtenOnlyByMain(VD);
      },
      MaxSplitFlags);
  PointerValue Returns = PointerValue::unset();
  Recorder Record(Dataflow, Arguments, StateAt, Stores, Returns,
                  Summaries && Summaries->recordsProgramCalls());
  std::optional<ProvenanceState> Exit;
  for (unsigned Values = 0; Values < 1u << Flags.size(); ++Values) {
    Dataflow.assume(Flags, Values);
    std::vector<std::optional<ProvenanceState>> In =
        solveForward(*Cfg, Dataflow);
    // Reporting pass: replay each reached block from its fixpoint in-state.
    for (const CFGBlock *B : *Cfg) {
      const std::optional<ProvenanceState> &BlockIn = In[B->getBlockID()];
      if (!BlockIn)
        continue;
      ProvenanceState S = *BlockIn;
      for (const CFGElement &E : *B) {
        Record.observe(E, S);
        Dataflow.transfer(E, S);
      }
    }
    // What callers see: the state where every path returns.
    if (std::optional<ProvenanceState> &End = In[Cfg->getExit().getBlockID()];
        End && Exit)
      Dataflow.join(*Exit, *End);
    else if (End)
      Exit = std::move(End);
  }
  if (!Exit)
    return;
  Summary.Returns = Returns;
  Summary.RegistrationAnswers = Exit->RegistrationAnswers;
  Summary.OutParams.resize(FD->getNumParams());
  Summary.RegistersParam.resize(FD->getNumParams());
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    if (auto It = Exit->Pointees.find(PD); It != Exit->Pointees.end())
      Summary.OutParams[I] = It->second;
    if (const RegistrationFact *F = Exit->registration(PD))
      Summary.RegistersParam[I] = F->R;
  }
  // The registration of every allocation it touched: what it returns or
  // stores out, and what globals and fields hold, which its callers may
  // release. (Facts keyed by a parameter are RegistersParam's.)
  llvm::SmallPtrSet<const void *, 4> Parameters(FD->param_begin(),
                                                FD->param_end());
  llvm::SmallPtrSet<const void *, 4> Globals(Finder.Globals.begin(),
                                             Finder.Globals.end());
  Exit->Registered.forEach([&](const void *Key, const RegistrationFact &Fact) {
    if (Globals.count(Key))
      Summary.RegistersGlobal.insert_or_assign(
          static_cast<const VarDecl *>(Key), Fact.R);
    else if (!Parameters.count(Key))
      Summary.ExitRegistration.insert_or_assign(Key, Fact);
  });
}

SourceLocation originLocation(Origin O) {
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return S->getBeginLoc();
  return cast<const Decl *>(O)->getLocation();
}

/// Source order for origins of this translation unit, then the others' by
/// their places.
static bool originBefore(Origin A, Origin B, const SourceManager &SM) {
  const auto *EA = A.dyn_cast<const ExternalOrigin *>();
  const auto *EB = B.dyn_cast<const ExternalOrigin *>();
  if (EA || EB) {
    if (!EA || !EB)
      return !EA;
    return std::tie(EA->File, EA->Line, EA->Column) <
           std::tie(EB->File, EB->Line, EB->Column);
  }
  return SM.isBeforeInTranslationUnit(originLocation(A), originLocation(B));
}

PointerValue FunctionProvenance::argumentAt(const CallExpr *Call,
                                            unsigned Index) const {
  auto It = Arguments.find(Call);
  if (It == Arguments.end() || Index >= It->second.size())
    return PointerValue::unknown();
  return It->second[Index];
}

PointerValue FunctionProvenance::valueAt(const Stmt *At,
                                         const Expr *Ptr) const {
  auto It = StateAt.find(At);
  if (It == StateAt.end() || !Ptr)
    return PointerValue::unknown();
  return Evaluator(It->second, Escaped, PointerTables, Summaries, Function)
      .pointer(Ptr);
}

/// The value of a pointer into one of \p Origins, all allocations of one
/// kind; unknown where they are none, or of different or unknown kinds.
static PointerValue oneKind(llvm::ArrayRef<Origin> Origins) {
  std::optional<MemoryKind> Kind =
      Origins.empty() ? std::nullopt : allocationKind(Origins.front());
  if (!Kind)
    return PointerValue::unknown();
  PointerValue Narrowed = PointerValue::unset();
  for (Origin O : Origins) {
    if (allocationKind(O) != Kind)
      return PointerValue::unknown();
    Narrowed = PointerValue::join(Narrowed, PointerValue::known(*Kind, O));
  }
  return Narrowed;
}

PointerValue FunctionProvenance::caseCorrelated(const PointerValue &V,
                                                const Stmt *At) const {
  // Allocations of different kinds, each in its own case of a switch on
  // the value a later switch around \p At tests (SwitchCorrelation.h).
  if (V.peekTag() != PointerValue::Tag::Unknown || V.peekTop())
    return PointerValue::unknown();
  llvm::SmallVector<Origin, 2> Reaching =
      originsReaching(V.peekOrigins(), At, Function);
  if (Reaching.size() == V.peekOrigins().size())
    return PointerValue::unknown();
  PointerValue Narrowed = oneKind(Reaching);
  return Narrowed.peekTag() == PointerValue::Tag::Known
             ? Narrowed.madeFrom(V.answers())
             : Narrowed;
}

PointerValue FunctionProvenance::hostAllocations(const PointerValue &V) {
  // A struct field stored both the host buffer and its device twin (a
  // shallow copy of the struct whose field cudaMalloc overwrote): the
  // source of a host-to-device copy is not the device one.
  if (V.peekTag() != PointerValue::Tag::Unknown || V.peekTop())
    return PointerValue::unknown();
  llvm::SmallVector<Origin, 2> Host;
  for (Origin O : V.peekOrigins())
    if (allocationKind(O) != MemoryKind::Device)
      Host.push_back(O);
  PointerValue Narrowed = oneKind(Host);
  return Narrowed.peekTag() == PointerValue::Tag::Known
             ? Narrowed.madeFrom(V.answersAsChosen())
             : Narrowed;
}

HostProvenance FunctionProvenance::pointerAt(const Stmt *At, const Expr *Ptr,
                                             bool HostByContract) const {
  auto It = StateAt.find(At);
  PointerValue V = valueAt(At, Ptr);
  // A pointer parameter this function neither reassigned nor registered
  // (on any path to here) holds what every call site passes, where the
  // translation unit knows them all. (An unknown value made from joins
  // that only grow stays so: only its other answers are recorded.)
  if (!V.isKnownAsJoinsGrow() && Summaries && It != StateAt.end())
    if (const ParmVarDecl *PD = pointerParameterBase(Ptr))
      if (!Escaped.count(PD) && !It->second.Vars.count(PD)) {
        // A lookup of the parameter's registration reads every answer the
        // registrations were made from.
        readProgramAnswers(It->second.RegistrationAnswers);
        if (!It->second.Registered.contains(PD))
          V = Summaries->parameter(PD);
      }
  if (!V.isKnownAsJoinsGrow()) {
    PointerValue Correlated = caseCorrelated(V, At);
    if (!Correlated.isKnown() && HostByContract)
      Correlated = hostAllocations(V);
    if (!Correlated.isKnown())
      return {};
    V = std::move(Correlated);
  }
  HostProvenance Result{V.kind(), {V.origins().begin(), V.origins().end()}, {}};
  // The lattice orders origins by address; reports list them in source
  // order, the same in every process.
  llvm::sort(Result.Origins,
             [&](Origin A, Origin B) { return originBefore(A, B, *SM); });
  if (V.kind() != MemoryKind::Pageable)
    return Result;
  // Pageable memory is registered only if every allocation it may point
  // into is registered on every path. Where this function says nothing, a
  // registration elsewhere in the translation unit leaves it open. Each
  // lookup reads the answers the registrations were made from.
  readProgramAnswers(It->second.RegistrationAnswers);
  unsigned Registered = 0;
  // In source order, so that the registering calls are listed alike in
  // every process.
  for (Origin O : Result.Origins) {
    const RegistrationFact *F = It->second.registration(O.getOpaqueValue());
    if (F && F->Fresh)
      F = nullptr;
    Registration R = F ? F->R
                     : Summaries && Summaries->registeredAnywhere(O)
                         ? Registration::Maybe
                         : Registration::No;
    if (R == Registration::Maybe)
      return {};
    if (R == Registration::Yes) {
      ++Registered;
      if (F->By && !llvm::is_contained(Result.RegisteredBy, F->By))
        Result.RegisteredBy.push_back(F->By);
    }
  }
  if (Registered == V.origins().size())
    Result.Kind = MemoryKind::Registered;
  else if (Registered != 0)
    return {};
  return Result;
}

} // namespace cuda_async_lint
