//===- PendingTransfers.cpp - The pending-transfer dataflow ---------------===//

#include "PendingTransfers.h"
#include "../api/CudaApiCatalog.h"
#include "BranchFacts.h"
#include "ForwardDataflow.h"
#include "NonBlockingStreams.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

template <typename Set, typename Pred> void eraseIf(Set &S, Pred P) {
  for (auto It = S.begin(); It != S.end();)
    It = P(*It) ? S.erase(It) : std::next(It);
}

/// A function whose body the analysis cannot see: defined in another
/// translation unit, and not a library function of a system header (those
/// do not touch CUDA streams) nor a catalogued CUDA call.
bool isOpaqueFunction(const FunctionDecl *FD, const ASTContext &Ctx) {
  if (FD->hasBody() || lookupApi(FD))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  return !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// cudaStream_t and CUstream (both 'CUstream_st *').
bool isStreamType(QualType T) {
  const auto *Ptr = T.getCanonicalType()->getAs<PointerType>();
  const auto *Record = Ptr ? Ptr->getPointeeType()->getAsRecordDecl() : nullptr;
  return Record && Record->getName() == "CUstream_st";
}

const VarDecl *declRefVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Facts under one assumption about the loop counters.
struct Disjunct {
  /// Counters known to have been incremented since they were set to 0.
  std::set<const VarDecl *> Advanced;
  std::set<PendingTransfer> Pending;
  /// Per event recorded on every path: the transfers it covers. An event
  /// not in the map was recorded somewhere unknown.
  std::map<StreamRef, std::set<PendingTransfer>> EventCovers;
  /// What the path's branch conditions say (BranchFacts.h).
  BranchFactSet Facts;

  bool operator==(const Disjunct &O) const {
    return Advanced == O.Advanced && Pending == O.Pending &&
           EventCovers == O.EventCovers && Facts == O.Facts;
  }
  /// Disjuncts with the same assumptions merge.
  bool sameAssumptions(const Disjunct &O) const {
    return Advanced == O.Advanced && Facts == O.Facts;
  }
};

struct PendingState {
  std::vector<Disjunct> Disjuncts;
  bool operator==(const PendingState &O) const {
    return Disjuncts == O.Disjuncts;
  }
};

/// More disjuncts than this merge, bounding the state.
constexpr size_t MaxDisjuncts = 8;

void mergeInto(Disjunct &Into, const Disjunct &From) {
  Into.Pending.insert(From.Pending.begin(), From.Pending.end());
  intersectSetMaps(Into.EventCovers, From.EventCovers);
}

/// Joins \p From into \p Into and brings \p Into to its canonical form:
/// one disjunct per set of counter facts, sorted, at most MaxDisjuncts.
void joinStates(PendingState &Into, const PendingState &From) {
  std::vector<Disjunct> All = std::move(Into.Disjuncts);
  All.insert(All.end(), From.Disjuncts.begin(), From.Disjuncts.end());
  Into.Disjuncts.clear();
  for (Disjunct &D : All) {
    auto Same = llvm::find_if(Into.Disjuncts, [&](const Disjunct &Mine) {
      return Mine.sameAssumptions(D);
    });
    if (Same != Into.Disjuncts.end())
      mergeInto(*Same, D);
    else
      Into.Disjuncts.push_back(std::move(D));
  }
  // Paths in the same state that differ only in what their branches said
  // are one path: what they all said is kept (a later branch learns the
  // rest again). This keeps functions with many independent conditions
  // within MaxDisjuncts.
  for (size_t I = 0; I < Into.Disjuncts.size(); ++I)
    for (size_t J = I + 1; J < Into.Disjuncts.size();) {
      Disjunct &A = Into.Disjuncts[I], &B = Into.Disjuncts[J];
      if (A.Advanced == B.Advanced && A.Pending == B.Pending &&
          A.EventCovers == B.EventCovers) {
        BranchFacts::intersect(A.Facts, B.Facts);
        Into.Disjuncts.erase(Into.Disjuncts.begin() + J);
      } else {
        ++J;
      }
    }
  // Too many: forget the counter and branch facts (every branch on them is
  // then feasible, which only costs precision).
  if (Into.Disjuncts.size() > MaxDisjuncts) {
    Disjunct All = Into.Disjuncts.front();
    for (size_t I = 1; I < Into.Disjuncts.size(); ++I) {
      mergeInto(All, Into.Disjuncts[I]);
      BranchFacts::intersect(All.Facts, Into.Disjuncts[I].Facts);
    }
    All.Advanced.clear();
    Into.Disjuncts = {std::move(All)};
  }
  llvm::sort(Into.Disjuncts, [](const Disjunct &A, const Disjunct &B) {
    return std::tie(A.Advanced, A.Facts) < std::tie(B.Advanced, B.Facts);
  });
}

/// What a condition on a loop counter (0 at the start, only incremented)
/// says on each disjunct.
enum class CounterTest {
  /// 'i > 0', 'i != 0', 'i >= 1', 'i': true exactly once incremented.
  TrueIffAdvanced,
  /// 'i == 0', '!i', 'i < 1', 'i <= 0': false exactly once incremented.
  FalseIffAdvanced,
  /// 'i < K', 'i != K', 'i <= K' for a constant K > 0: true at the start
  /// (a loop with a constant bound runs at least once), either way after.
  TrueAtStart,
};

/// The loop counter \p Cond tests, and how.
std::optional<std::pair<const VarDecl *, CounterTest>>
counterCondition(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    BinaryOperatorKind Op = BO->getOpcode();
    if (!BO->isComparisonOp())
      return std::nullopt;
    if (declRefVar(R) && !declRefVar(L)) { // 0 < i is i > 0.
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    const VarDecl *VD = declRefVar(L);
    std::optional<int64_t> K = Constant(R);
    if (!VD || !K)
      return std::nullopt;
    if (((Op == BO_GT || Op == BO_NE) && *K == 0) || (Op == BO_GE && *K == 1))
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
    if (((Op == BO_EQ || Op == BO_LE) && *K == 0) || (Op == BO_LT && *K == 1))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    if (((Op == BO_LT || Op == BO_NE) && *K > 0) || (Op == BO_LE && *K >= 0))
      return std::make_pair(VD, CounterTest::TrueAtStart);
    return std::nullopt;
  }
  if (const VarDecl *VD = declRefVar(Cond)) // if (i)
    if (VD->getType()->isIntegerType())
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
  return std::nullopt;
}

/// Loop counters: local integers set to 0 and otherwise only incremented,
/// so that 'i > 0' holds exactly once they were incremented, and that some
/// condition tests that way.
class CounterFinder : public RecursiveASTVisitor<CounterFinder> {
public:
  std::set<const VarDecl *> Counters;
  explicit CounterFinder(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitIfStmt(IfStmt *S) { return tested(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return tested(S->getCond()); }
  bool VisitWhileStmt(WhileStmt *S) { return tested(S->getCond()); }
  bool VisitConditionalOperator(ConditionalOperator *CO) {
    return tested(CO->getCond());
  }

  bool VisitVarDecl(VarDecl *VD) {
    // 'int i;' before 'for (i = 0; ...)': reading it before the assignment
    // would be undefined, so it is taken as starting at 0 too.
    if (VD->hasLocalStorage() && VD->getType()->isIntegerType() &&
        !isa<ParmVarDecl>(VD) && (!VD->getInit() || isZero(VD->getInit())))
      Candidates.insert(VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (const VarDecl *VD = declRefVar(BO->getLHS())) {
      if (BO->getOpcode() == BO_Assign && !isZero(BO->getRHS()))
        Other.insert(VD);
      else if (BO->isCompoundAssignmentOp() &&
               (BO->getOpcode() != BO_AddAssign || !isPositive(BO->getRHS())))
        Other.insert(VD);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
      if (UO->isDecrementOp() || UO->getOpcode() == UO_AddrOf)
        Other.insert(VD);
    return true;
  }
  void finish() {
    for (const VarDecl *VD : Candidates)
      if (!Other.count(VD) && Tested.count(VD))
        Counters.insert(VD);
  }

private:
  static bool isZero(const Expr *E) {
    const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    return Int && Int->getValue() == 0;
  }
  static bool isPositive(const Expr *E) {
    const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    return Int && Int->getValue().getZExtValue() > 0;
  }
  bool tested(const Expr *Cond) {
    if (!Cond)
      return true;
    if (auto Counter = counterCondition(Cond, Ctx))
      Tested.insert(Counter->first);
    // 'i < n': a loop bound, for BranchFacts.
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()))
      if (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_NE)
        if (const VarDecl *VD = declRefVar(BO->getLHS()))
          Tested.insert(VD);
    return true;
  }

  const ASTContext &Ctx;
  std::set<const VarDecl *> Candidates, Other, Tested;
};

class TransferDataflow {
public:
  using State = PendingState;

  TransferDataflow(const FunctionDecl *FD, ASTContext &Ctx,
                   ProvenanceAnalysis &Provenance, SyncSummaries &Syncs,
                   const HostAccessFinder &Accesses)
      : Ctx(Ctx), Provenance(Provenance.function(FD)), Syncs(Syncs),
        Accesses(Accesses), Branches(FD, Ctx),
        PerThread(usesPerThreadDefaultStream(FD)) {
    CounterFinder Counters(Ctx);
    Counters.TraverseDecl(const_cast<FunctionDecl *>(FD));
    Counters.finish();
    LoopCounters = std::move(Counters.Counters);
    NonBlocking = nonBlockingStreams(FD, Ctx);
  }

  State entryState() const { return State{{Disjunct{}}}; }
  void join(State &Into, const State &From) const { joinStates(Into, From); }

  void transfer(const CFGElement &E, State &S) const {
    for (Disjunct &D : S.Disjuncts)
      transfer(E, D, nullptr);
    joinStates(S, State()); // An increment can make two disjuncts one.
  }

  /// The reporting pass: the same transfer, recording hazards.
  void replay(const CFGElement &E, State &S,
              std::vector<TransferHazard> &Hazards) const {
    for (Disjunct &D : S.Disjuncts)
      transfer(E, D, &Hazards);
    joinStates(S, State());
  }

  void transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    if (const auto *Switch =
            dyn_cast_or_null<SwitchStmt>(From.getTerminatorStmt())) {
      const CFGBlock::AdjacentBlock &Edge = From.succ_begin()[SuccIndex];
      const CFGBlock *Succ = Edge.getReachableBlock()
                                 ? Edge.getReachableBlock()
                                 : Edge.getPossiblyUnreachableBlock();
      const Stmt *Label = Succ ? Succ->getLabel() : nullptr;
      llvm::erase_if(S.Disjuncts, [&](Disjunct &D) {
        return !Branches.takeSwitchEdge(Switch, Label, D.Facts);
      });
      return;
    }
    const Expr *Cond = branchCondition(From);
    if (!Cond)
      return;
    counterEdge(Cond, SuccIndex, S);
    pollingEdge(Cond, SuccIndex, S);
    llvm::erase_if(S.Disjuncts, [&](Disjunct &D) {
      return !Branches.takeEdge(
          Cond, SuccIndex == 0, D.Facts, [&](const VarDecl *VD) {
            return LoopCounters.count(VD) && !D.Advanced.count(VD);
          });
    });
  }

private:
  /// The stream (or event) \p E names, through local copies of it:
  /// 'cudaStream_t s2 = s' is s.
  StreamRef stream(const Expr *E) const {
    StreamRef S = streamRef(E);
    for (int Depth = 0; Depth < 8 && S.K == StreamRef::Kind::Named; ++Depth) {
      const auto *VD = dyn_cast<VarDecl>(S.Decl);
      const Expr *Init = VD ? Accesses.aliasOf(VD) : nullptr;
      if (!Init)
        break;
      S = streamRef(Init);
    }
    return S;
  }

  /// 'i > 0' and friends, for a loop counter i: true exactly where i was
  /// incremented.
  void counterEdge(const Expr *Cond, unsigned SuccIndex, State &S) const {
    auto Counter = counterCondition(Cond, Ctx);
    if (!Counter || !LoopCounters.count(Counter->first))
      return;
    bool TrueEdge = SuccIndex == 0;
    llvm::erase_if(S.Disjuncts, [&](const Disjunct &D) {
      bool Advanced = D.Advanced.count(Counter->first);
      switch (Counter->second) {
      case CounterTest::TrueIffAdvanced:
        return Advanced != TrueEdge;
      case CounterTest::FalseIffAdvanced:
        return Advanced == TrueEdge;
      case CounterTest::TrueAtStart:
        return !Advanced && !TrueEdge;
      }
      return false;
    });
  }

  /// 'while (cudaStreamQuery(s) == cudaErrorNotReady)': leaving the loop
  /// means the stream is done; likewise cudaEventQuery for an event.
  void pollingEdge(const Expr *Cond, unsigned SuccIndex, State &S) const {
    const Expr *Query = Cond;
    unsigned DoneEdge = 1; // 'if (cudaStreamQuery(s))': nonzero, not done.
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot) {
      Query = UO->getSubExpr();
      DoneEdge = 0;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
               BO && BO->isEqualityOp()) {
      Query = BO->getLHS();
      std::optional<CudaErrorCode> Code = cudaErrorCode(BO->getRHS());
      if (!Code) {
        Query = BO->getRHS();
        Code = cudaErrorCode(BO->getLHS());
      }
      if (!Code)
        return;
      bool Equal = BO->getOpcode() == BO_EQ;
      bool DoneOnTrue = (*Code == CudaErrorCode::Success) == Equal;
      DoneEdge = DoneOnTrue ? 0 : 1;
    }
    const auto *Call = dyn_cast<CallExpr>(Query->IgnoreParenImpCasts());
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || SuccIndex != DoneEdge)
      return;
    for (Disjunct &D : S.Disjuncts) {
      if (Api->Kind == ApiKind::StreamQuery)
        syncStream(D, stream(Api->arg(Call, ArgRole::Stream)));
      else if (Api->Kind == ApiKind::EventQuery)
        syncEvent(D, stream(Api->arg(Call, ArgRole::Event)));
    }
  }

  /// True if work on \p S (a sync of it, or an event recorded on it) waits
  /// for \p P: the same stream, or one that may be it.
  bool waitsFor(const StreamRef &S, const PendingTransfer &P) const {
    using K = StreamRef::Kind;
    const StreamRef &T = P.Stream;
    if (S.K == K::Unknown || T.K == K::Unknown)
      return true;
    if (S.K == K::Legacy && PerThread) // 0 is the per-thread stream.
      return T.K == K::Legacy || T.K == K::PerThread;
    // The legacy default stream waits for every blocking stream.
    if (S.K == K::Legacy)
      return !NonBlocking.count(T.Decl) || T.K == K::Legacy;
    return T == S;
  }

  /// A sync covering \p S: of the stream itself, or one that may be it.
  void syncStream(Disjunct &D, const StreamRef &S) const {
    eraseIf(D.Pending,
            [&](const PendingTransfer &P) { return waitsFor(S, P); });
  }

  void syncAll(Disjunct &D) const { D.Pending.clear(); }

  /// Blocking copies and memsets wait for the legacy default stream, and so
  /// for every stream not created with cudaStreamNonBlocking.
  void syncBlocking(Disjunct &D) const {
    eraseIf(D.Pending, [&](const PendingTransfer &P) {
      return !P.Stream.Decl || !NonBlocking.count(P.Stream.Decl);
    });
  }

  void syncEvent(Disjunct &D, const StreamRef &Event) const {
    auto It = D.EventCovers.find(Event);
    if (Event.K == StreamRef::Kind::Unknown || It == D.EventCovers.end()) {
      syncAll(D); // Recorded where the analysis cannot see: anything.
      return;
    }
    for (const PendingTransfer &P : It->second)
      D.Pending.erase(P);
  }

  void transfer(const CFGElement &E, Disjunct &D,
                std::vector<TransferHazard> *Hazards) const {
    // A counter's facts end with its scope.
    if (std::optional<CFGLifetimeEnds> End = E.getAs<CFGLifetimeEnds>()) {
      D.Advanced.erase(End->getVarDecl());
      BranchFacts::written(End->getVarDecl(), D.Facts);
    }
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    const Stmt *St = CS ? CS->getStmt() : nullptr;
    const auto *Call = dyn_cast_or_null<CallExpr>(St);

    // Synchronization first: a blocking copy waits, then touches the host.
    if (Call)
      synchronize(Call, D);

    llvm::SmallVector<HostAccess, 4> Found;
    Accesses.accessesOf(E, Found);
    for (const HostAccess &A : Found)
      access(A, D, Hazards);

    if (Call)
      issue(Call, D);

    if (St)
      if (const VarDecl *Written = HostAccessFinder::writtenVariable(St)) {
        BranchFacts::written(Written, D.Facts);
        // The buffers derived from it are other buffers now.
        eraseIf(D.Pending, [&](const PendingTransfer &P) {
          return P.Buffer.Base == Written || P.Buffer.Deps.count(Written);
        });
        if (LoopCounters.count(Written)) {
          if (isa<DeclStmt>(St))
            D.Advanced.erase(Written);
          else if (!isa<BinaryOperator>(St) ||
                   cast<BinaryOperator>(St)->isCompoundAssignmentOp())
            D.Advanced.insert(Written);
          else
            D.Advanced.erase(Written); // i = 0
        }
      }
  }

  void synchronize(const CallExpr *Call, Disjunct &D) const {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api) {
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD || (isOpaqueFunction(FD, Ctx) && !Syncs.summary(FD))) {
        // Defined in another translation unit (or called through a
        // pointer): it may synchronize the streams it is given. Precision
        // first: assume it does. A helper given only the buffer is a host
        // access (document 000's refill race: prepareBatch(h_pinned, i)).
        for (const Expr *Arg : Call->arguments())
          if (isStreamType(Arg->getType()))
            syncStream(D, stream(Arg));
        return;
      }
      const SyncSummary *Summary = Syncs.summary(FD);
      if (!Summary)
        return;
      if (Summary->Device)
        syncAll(D);
      for (unsigned I : Summary->StreamParams)
        if (I < Call->getNumArgs())
          syncStream(D, stream(Call->getArg(I)));
      return;
    }
    switch (Api->Kind) {
    case ApiKind::StreamSync:
      syncStream(D, stream(Api->arg(Call, ArgRole::Stream)));
      break;
    case ApiKind::DeviceSync:
      syncAll(D);
      break;
    case ApiKind::EventSync:
      syncEvent(D, stream(Api->arg(Call, ArgRole::Event)));
      break;
    case ApiKind::EventRecord: {
      StreamRef Event = stream(Api->arg(Call, ArgRole::Event));
      StreamRef Stream = stream(Api->arg(Call, ArgRole::Stream));
      if (Event.K == StreamRef::Kind::Unknown)
        break;
      // An event recorded on the legacy stream completes once every
      // blocking stream's earlier work has.
      std::set<PendingTransfer> Covered;
      for (const PendingTransfer &P : D.Pending)
        if (P.Stream == Stream ||
            (Stream.K == StreamRef::Kind::Legacy && waitsFor(Stream, P)))
          Covered.insert(P);
      D.EventCovers[Event] = std::move(Covered);
      break;
    }
    case ApiKind::Copy:
    case ApiKind::Memset:
      // "For transfers from device memory to device memory, no host-side
      // synchronization is performed."
      if (Api->Mode == ApiMode::Blocking &&
          copyDirection(Call, *Api, Ctx) != CopyDirection::DeviceToDevice)
        syncBlocking(D);
      break;
    case ApiKind::Release:
      // cudaFree and cudaFreeHost synchronize the device first.
      if (Api->Mode == ApiMode::Blocking)
        syncAll(D);
      break;
    default:
      break;
    }
  }

  void access(const HostAccess &A, Disjunct &D,
              std::vector<TransferHazard> *Hazards) const {
    for (auto It = D.Pending.begin(); It != D.Pending.end();) {
      const PendingTransfer &P = *It;
      bool SameBuffer =
          P.Buffer.Base == A.Buffer.Base &&
          (A.Whole() ||
           std::includes(A.Buffer.Deps.begin(), A.Buffer.Deps.end(),
                         P.Buffer.Deps.begin(), P.Buffer.Deps.end()));
      // Reading a buffer the device only reads is fine.
      bool Conflict =
          SameBuffer && (P.DeviceWrites || A.Kind != AccessKind::Read);
      if (!Conflict) {
        ++It;
        continue;
      }
      if (Hazards)
        Hazards->push_back({A, P});
      It = D.Pending.erase(It); // Reported once, at the first access.
    }
  }

  /// An async copy: its host side is now in flight on its stream, unless
  /// it is memory such a copy cannot be asynchronous with (pageable: that
  /// is cuda-async-pageable-copy's finding) or no host memory at all.
  void issue(const CallExpr *Call, Disjunct &D) const {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::Copy || Api->Mode != ApiMode::Async)
      return;
    const Expr *StreamArg = Api->arg(Call, ArgRole::Stream);
    if (isa_and_nonnull<CXXDefaultArgExpr>(StreamArg))
      StreamArg = nullptr; // Omitted: the legacy default stream.
    StreamRef Stream = stream(StreamArg);
    for (const HostSide &Side : hostSides(Call, *Api, Ctx)) {
      HostProvenance P = Provenance.pointerAt(Call, Side.Arg);
      if (P.is(MemoryKind::Pageable) || P.is(MemoryKind::Device))
        continue;
      std::optional<BufferRef> Buffer = Accesses.bufferOf(Side.Arg);
      if (!Buffer || !Buffer->Base)
        continue;
      D.Pending.insert(
          {Call, std::move(*Buffer), Stream, StreamArg, Side.IsDestination});
    }
  }

  ASTContext &Ctx;
  const FunctionProvenance &Provenance;
  SyncSummaries &Syncs;
  const HostAccessFinder &Accesses;
  std::set<const VarDecl *> LoopCounters;
  std::set<const ValueDecl *> NonBlocking;
  BranchFacts Branches;
  /// Compiled with --default-stream per-thread: 0 is the per-thread stream.
  bool PerThread;
};

/// The must-analysis behind SyncSummary: what is synchronized on every path
/// to the exit.
struct SyncState {
  bool Device = false;
  std::set<const ParmVarDecl *> Streams;
  bool operator==(const SyncState &O) const {
    return Device == O.Device && Streams == O.Streams;
  }
};

class SyncDataflow {
public:
  using State = SyncState;
  explicit SyncDataflow(SyncSummaries &Syncs) : Syncs(Syncs) {}

  State entryState() const { return {}; }
  void join(State &Into, const State &From) const {
    Into.Device = Into.Device && From.Device;
    std::set<const ParmVarDecl *> Both;
    std::set_intersection(Into.Streams.begin(), Into.Streams.end(),
                          From.Streams.begin(), From.Streams.end(),
                          std::inserter(Both, Both.begin()));
    Into.Streams = std::move(Both);
  }
  void transferEdge(const CFGBlock &, unsigned, State &) const {}

  void transfer(const CFGElement &E, State &S) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    const auto *Call = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
    if (!Call)
      return;
    auto SyncParam = [&](const Expr *Arg) {
      if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(declRefVar(Arg)))
        S.Streams.insert(PD);
    };
    if (const ApiSpec *Api = lookupApi(Call)) {
      if (Api->Kind == ApiKind::DeviceSync)
        S.Device = true;
      else if (Api->Kind == ApiKind::StreamSync)
        if (const Expr *Arg = Api->arg(Call, ArgRole::Stream))
          SyncParam(Arg);
      return;
    }
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && isOpaqueFunction(FD, Syncs.context()) && !Syncs.summary(FD)) {
      // Assumed to synchronize what it is given (precision first).
      for (const Expr *Arg : Call->arguments())
        if (isStreamType(Arg->getType()))
          SyncParam(Arg);
      return;
    }
    if (const SyncSummary *Summary = FD ? Syncs.summary(FD) : nullptr) {
      S.Device = S.Device || Summary->Device;
      for (unsigned I : Summary->StreamParams)
        if (I < Call->getNumArgs())
          SyncParam(Call->getArg(I));
    }
  }

private:
  SyncSummaries &Syncs;
};

} // namespace

const SyncSummary *SyncSummaries::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  // Defined in another unit of the program: its summary there.
  if (!FD->hasBody(Def)) {
    const FunctionFacts *Facts = Program.function(FD);
    return Facts ? &Facts->Sync : nullptr;
  }
  if (!FD->hasBody(Def) || !Def ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      InProgress.count(Def))
    return nullptr;
  if (auto It = Done.find(Def); It != Done.end())
    return &It->second;
  InProgress.insert(Def);
  SyncSummary Summary;
  if (std::unique_ptr<CFG> Cfg =
          buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true)) {
    SyncDataflow Dataflow(*this);
    std::vector<std::optional<SyncState>> In = solveForward(*Cfg, Dataflow);
    if (const std::optional<SyncState> &Exit =
            In[Cfg->getExit().getBlockID()]) {
      Summary.Device = Exit->Device;
      for (unsigned I = 0; I < Def->getNumParams(); ++I)
        if (Exit->Streams.count(Def->getParamDecl(I)))
          Summary.StreamParams.insert(I);
    }
  }
  InProgress.erase(Def);
  return &(Done[Def] = std::move(Summary));
}

std::vector<TransferHazard> findTransferHazards(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs) {
  std::vector<TransferHazard> Hazards;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return Hazards;
  HostAccessFinder Accesses(FD);
  TransferDataflow Dataflow(FD, Ctx, Provenance, Syncs, Accesses);
  solveAndReplay(*Cfg, Dataflow, Hazards);
  return Hazards;
}

} // namespace cuda_async_lint
