//===- TransferDataflow.cpp - Transfers in flight, step by step -----------===//

#include "TransferDataflow.h"
#include "MemberEffects.h"
#include "SlotRings.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/LoopCounters.h"
#include "analysis/sync/NonBlockingStreams.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/HostCommunication.h"
#include "api/ReleaseSite.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint::pending {

TransferDataflow::TransferDataflow(const FunctionDecl *FD, ASTContext &Ctx,
                                   ProvenanceAnalysis &Provenance,
                                   SyncSummaries &Syncs,
                                   const HostAccessFinder &Accesses,
                                   TransferSet Seed)
    : Function(FD), Ctx(Ctx), Provenances(Provenance),
      Provenance(Provenance.function(FD)), Syncs(Syncs), Accesses(Accesses),
      Seed(std::move(Seed)), Branches(FD, Ctx),
      WaitLoops(Ctx.getSourceManager()),
      PerThread(usesPerThreadDefaultStream(FD)), Scope(deviceMemoryScope(FD)) {
  CounterFinder Counters(Ctx);
  Counters.TraverseDecl(const_cast<FunctionDecl *>(FD));
  Counters.finish();
  LoopCounters = std::move(Counters.Counters);
  NonBlocking = nonBlockingStreams(FD, Ctx);
  Results = findCallResults(FD);
}

TransferDataflow::State TransferDataflow::entryState() const {
  Disjunct Entry;
  Entry.Pending = Seed;
  return State{{std::move(Entry)}};
}

void TransferDataflow::transfer(const CFGElement &E, State &S) const {
  for (Disjunct &D : S.Disjuncts)
    transfer(E, D, nullptr);
  normalizeAfter(E, S);
}

void TransferDataflow::replay(const CFGElement &E, State &S,
                              std::vector<TransferHazard> &Hazards) const {
  for (Disjunct &D : S.Disjuncts)
    transfer(E, D, &Hazards);
  normalizeAfter(E, S);
}

bool TransferDataflow::transferEdge(const CFGBlock &From, unsigned SuccIndex,
                                    State &S) const {
  // What the block's last elements made equal merges before the edge
  // tests the disjuncts' facts.
  joinStates(S, State());
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
    return true;
  }
  // A loop that waits for the device in every iteration runs at least
  // once (DeviceWaitLoops.h).
  if (WaitLoops.leaves(From, SuccIndex, Syncs.callSyncsQuery()))
    for (Disjunct &D : S.Disjuncts)
      syncAll(D);
  const Expr *Cond = branchCondition(From);
  if (!Cond)
    return true;
  counterEdge(Cond, SuccIndex, S);
  pollingEdge(Cond, SuccIndex, S);
  failureEdge(Cond, SuccIndex, S);
  llvm::erase_if(S.Disjuncts, [&](Disjunct &D) {
    return !Branches.takeEdge(
        Cond, SuccIndex == 0, D.Facts, [&](const VarDecl *VD) {
          return LoopCounters.count(VD) && !D.Advanced.count(VD);
        });
  });
  return true;
}

void TransferDataflow::normalizeAfter(const CFGElement &E, State &S) {
  std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
  if (E.getAs<CFGLifetimeEnds>() ||
      (CS && HostAccessFinder::writtenVariable(CS->getStmt())))
    joinStates(S, State());
}

StreamRef TransferDataflow::stream(const Expr *E) const {
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

void TransferDataflow::counterEdge(const Expr *Cond, unsigned SuccIndex,
                                   State &S) const {
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

void TransferDataflow::pollingEdge(const Expr *Cond, unsigned SuccIndex,
                                   State &S) const {
  std::optional<ResultTest> Test = resultTest(Cond);
  if (!Test)
    return;
  // 'if (cudaStreamQuery(s))': nonzero, not done; the done edge is where
  // the query returned cudaSuccess.
  bool DoneOnTrue = (Test->Code == CudaErrorCode::Success) == Test->TrueIfEqual;
  unsigned DoneEdge = DoneOnTrue ? 0 : 1;
  const Expr *Query = Test->Result;
  const auto *Call = dyn_cast<CallExpr>(Query->IgnoreParenImpCasts());
  const ApiSpec *Api = lookupApi(Call);
  if (!Api || SuccIndex != DoneEdge)
    return;
  for (Disjunct &D : S.Disjuncts) {
    if (Api->Kind == ApiKind::StreamQuery)
      syncStream(D, stream(Api->arg(Call, ArgRole::Stream)));
    else if (Api->Kind == ApiKind::EventQuery)
      syncEvent(D, Api->arg(Call, ArgRole::Event));
  }
}

void TransferDataflow::failureEdge(const Expr *Cond, unsigned SuccIndex,
                                   State &S) const {
  std::optional<ResultTest> Test = resultTest(Cond);
  if (!Test || Test->Code != CudaErrorCode::Success)
    return;
  unsigned FailureEdge = Test->TrueIfEqual ? 1 : 0;
  const CallExpr *Failed = resultOf(Test->Result, Results);
  if (SuccIndex != FailureEdge || !Failed || !lookupApi(Failed))
    return;
  for (Disjunct &D : S.Disjuncts)
    eraseIf(D.Pending,
            [&](const PendingTransfer &P) { return P.Op == Failed; });
}

void TransferDataflow::transfer(const CFGElement &E, Disjunct &D,
                                std::vector<TransferHazard> *Hazards) const {
  // A counter's facts end with its scope.
  if (std::optional<CFGLifetimeEnds> End = E.getAs<CFGLifetimeEnds>()) {
    D.Advanced.erase(End->getVarDecl());
    BranchFacts::written(End->getVarDecl(), D.Facts);
  }
  std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
  const Stmt *St = CS ? CS->getStmt() : nullptr;
  const auto *Call = dyn_cast_or_null<CallExpr>(St);

  // A member function of the translation unit called on a named object:
  // what it touches first, then what it synchronizes and leaves in
  // flight on the object's buffer members (MemberEffects.h).
  const MemberEffects *Effects = nullptr;
  const Decl *Object = nullptr;
  if (const auto *MemberCall = dyn_cast_or_null<CXXMemberCallExpr>(St))
    Effects = memberCall(MemberCall, D, Hazards, Object);
  if (Call)
    forgetObjectsGiven(Call, D);

  // Synchronization first: a blocking copy waits, then touches the host.
  if (Call)
    synchronize(Call, D);

  llvm::SmallVector<HostAccess, 4> Found;
  Accesses.accessesOf(E, Found);
  for (const HostAccess &A : Found)
    access(A, D, Hazards);

  if (Call && !D.Capturing && !PerThread)
    orderAroundLegacyStream(Call, D);
  if (Call) {
    issue(Call, D, Hazards);
    mpiRequests(Call, D);
  }
  if (Effects && Object)
    issueMemberTransfers(cast<CXXMemberCallExpr>(Call), *Effects, Object, D);

  // A pointer member pointed elsewhere names another buffer now.
  if (St) {
    llvm::SmallVector<BufferRef, 2> Reassigned;
    Accesses.reassignedMembers(St, Reassigned);
    for (const BufferRef &B : Reassigned)
      forgetMember(D, B.Base, B.Object);
    // So does a slot of an array of pointers ('staging[i] = other').
    if (const auto *BO = dyn_cast<BinaryOperator>(St);
        BO && BO->isAssignmentOp() &&
        BO->getLHS()->getType()->isPointerType() &&
        !isa<DeclRefExpr>(BO->getLHS()->IgnoreParens()))
      if (std::optional<BufferRef> Slot = Accesses.bufferOf(BO->getLHS());
          Slot && Slot->Loads > 0)
        eraseIf(D.Pending, [&](const PendingTransfer &P) {
          return P.Buffer.Base == Slot->Base &&
                 P.Buffer.Object == Slot->Object &&
                 P.Buffer.Loads == Slot->Loads && P.Buffer.Deps == Slot->Deps;
        });
  }

  if (St) {
    BranchFacts::writtenByApiCall(St, D.Facts);
    BranchFacts::memberEffects(St, D.Facts);
  }
  if (St)
    if (const VarDecl *Written = HostAccessFinder::writtenVariable(St)) {
      BranchFacts::written(Written, D.Facts);
      // The buffers derived from it are other buffers now. A slice it
      // indexed is an earlier slice: still in flight, and still part of
      // the whole buffer (read after the issuing loop, before the wait),
      // and still covered by the events and waits that covered it.
      bool Restarts = restartsCounter(St, Written);
      renameWritten(D.Pending, Written, St, Restarts, Ctx);
      for (auto &[Event, Covered] : D.EventCovers)
        renameWritten(Covered, Written, St, Restarts, Ctx);
      for (auto &[Stream, Ordered] : D.StreamWaits)
        renameWritten(Ordered, Written, St, Restarts, Ctx);
      for (auto &[Event, Ring] : D.EventRings)
        for (TransferSet &Record : Ring.Records)
          renameWritten(Record, Written, St, Restarts, Ctx);
      turnEventRings(D, St, Written, Ctx);
      // The element of an array of events it indexed may be another now.
      for (auto It = D.EventSlots.begin(); It != D.EventSlots.end();) {
        if (It->second.Deps.count(Written))
          It->second.Writes.insert(St);
        // Written over and over: not a ring moved on once.
        It = It->second.Writes.size() > MaxSlotWrites ? D.EventSlots.erase(It)
                                                      : std::next(It);
      }
      if (LoopCounters.count(Written)) {
        if (Restarts)
          D.Advanced.erase(Written);
        else
          D.Advanced.insert(Written);
      }
    }
}

bool TransferDataflow::restartsCounter(const Stmt *St,
                                       const VarDecl *Written) const {
  if (!LoopCounters.count(Written))
    return false;
  if (isa<DeclStmt>(St))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(St);
  return BO && !BO->isCompoundAssignmentOp(); // i = 0
}

void TransferDataflow::renameWritten(TransferSet &Transfers,
                                     const VarDecl *Written, const Stmt *St,
                                     bool Restarts, const ASTContext &Ctx) {
  std::vector<PendingTransfer> Moved;
  eraseIf(Transfers, [&](const PendingTransfer &P) {
    if (P.Buffer.Base == Written || P.Buffer.Object == Written)
      return true;
    if (Restarts &&
        (P.Buffer.Deps.count(Written) || P.Buffer.Stale.count(Written))) {
      // The next loop over the slices may name this one again.
      Moved.push_back(P);
      Moved.back().Buffer.Deps.clear();
      Moved.back().Buffer.Stale.erase(Written);
      return true;
    }
    if (!P.Buffer.Deps.count(Written))
      return false;
    Moved.push_back(P);
    // A slot of a ring: the slot it was, some moves behind.
    if (std::optional<BufferRef> Turned = turnedSlot(P, St, Written, Ctx)) {
      Moved.back().Buffer = std::move(*Turned);
      return true;
    }
    // Its other variables ('n' in 'h + i * n') no longer say which.
    Moved.back().Buffer.Deps.clear();
    Moved.back().Buffer.Stale.insert(Written);
    return true;
  });
  Transfers.insert(Moved.begin(), Moved.end());
}

bool TransferDataflow::releasedAsPageable(const HostAccess &A,
                                          const PendingTransfer &P) const {
  if (A.Kind != AccessKind::Release || !P.Op || !P.HostArg ||
      isa<CUDAKernelCallExpr>(P.Op))
    return false;
  std::optional<ReleaseSite> Site = releaseSite(dyn_cast<Expr>(A.At));
  if (!Site || Site->Expects != MemoryKind::Pageable)
    return false;
  // Memory the analysis cannot name the kind of, released by the program
  // with free or delete: pageable, by the program's own word (pinned memory
  // so released is cuda-async-dealloc-mismatch's finding), so its copy was
  // staged and nothing is in flight.
  return !Provenance.pointerAt(P.Op, P.HostArg, /*HostByContract=*/true).Kind;
}

void TransferDataflow::access(const HostAccess &Given, Disjunct &D,
                              std::vector<TransferHazard> *Hazards) const {
  // A buffer handed to a function of the user's: what the function does
  // with it, asked once it meets a transfer (HostAccessFinder::resolve).
  std::optional<HostAccess> Resolved;
  const HostAccess &A = Given.Callee ? Resolved.emplace(Given) : Given;
  bool Touches = true, Asked = !Given.Callee;
  for (auto It = D.Pending.begin(); It != D.Pending.end();) {
    const PendingTransfer &P = *It;
    // A nonblocking MPI call works on 'count' elements from its pointer,
    // which the analysis does not follow: only the same slice ('h', then
    // 'h[0]'; not 'h + n', the halo next to it) is surely its.
    bool SameBuffer = P.Request && !A.Whole()
                          ? sameBufferAnyElement(A.Buffer, P.Buffer)
                          : touchesInFlight(A.Buffer, A.Whole(), P.Buffer);
    if (SameBuffer && !Asked) {
      Touches = Accesses.resolve(*Resolved);
      Asked = true;
    }
    SameBuffer &= Touches;
    // Reading a buffer the device only reads is fine; device memory is
    // touched on the host only by what hands it to MPI.
    bool Conflict =
        SameBuffer && !P.CallerDecides &&
        (P.DeviceWrites || A.Kind != AccessKind::Read) &&
        (!P.DeviceMemory ||
         lookupHostCommunication(dyn_cast<CallExpr>(A.At)) != nullptr) &&
        !(isa_and_nonnull<CUDAKernelCallExpr>(P.Op) &&
          (isLibraryWork(A.At) || A.Atomic));
    if (!Conflict || releasedAsPageable(A, P)) {
      ++It;
      continue;
    }
    if (Hazards)
      Hazards->push_back({A, P});
    It = D.Pending.erase(It); // Reported once, at the first access.
  }
}

void TransferDataflow::issue(const CallExpr *Call, Disjunct &D,
                             std::vector<TransferHazard> *Hazards) const {
  const ApiSpec *Api = lookupApi(Call);
  if (Api && (Api->Kind == ApiKind::CaptureBegin ||
              Api->Kind == ApiKind::CaptureEnd)) {
    D.Capturing = Api->Kind == ApiKind::CaptureBegin;
    return;
  }
  // A copy issued during a capture runs when the graph is launched.
  if (D.Capturing)
    return;
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call)) {
    if (!PageableAsPinned)
      issueKernel(Launch, D, Hazards);
    return;
  }
  if (!Api)
    issueParameterTransfers(Call, D);
  if (!Api || Api->Kind != ApiKind::Copy || Api->Mode != ApiMode::Async)
    return;
  const Expr *StreamArg = Api->arg(Call, ArgRole::Stream);
  if (isa_and_nonnull<CXXDefaultArgExpr>(StreamArg))
    StreamArg = nullptr; // Omitted: the legacy default stream.
  StreamRef Stream = stream(StreamArg);
  if (Scope.SeveralStreams && !PageableAsPinned)
    issueDeviceSides(Call, *Api, StreamArg, Stream, D, Hazards);
  for (const HostSide &Side : hostSides(Call, *Api, Ctx)) {
    // The copy's direction says this side is host memory: a struct field
    // that also held its device twin ('h_table.newState' beside
    // 'd_table.newState') is its host allocation here, as
    // cuda-async-pageable-copy sees it; a pageable one is staged, no race.
    HostProvenance P =
        Provenance.pointerAt(Call, Side.Arg, /*HostByContract=*/true);
    if ((P.is(MemoryKind::Pageable) && !PageableAsPinned) ||
        P.is(MemoryKind::Device))
      continue;
    std::optional<BufferRef> Buffer = Accesses.bufferOf(Side.Arg);
    if (!Buffer || !Buffer->Base)
      continue;
    PendingTransfer Issued{Call,      std::move(*Buffer), Stream,
                           StreamArg, Side.IsDestination, Side.Arg};
    uncoverReissued(D, Issued);
    addPending(D.Pending, std::move(Issued));
  }
}

} // namespace cuda_async_lint::pending
