//===- LegacyStreamWork.cpp -----------------------------------------------===//

#include "LegacyStreamWork.h"
#include "CallsThatIssue.h"
#include "IterationWork.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/dataflow/BodyParents.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/LoopCounters.h"
#include "analysis/dataflow/Loops.h"
#include "analysis/pending/PendingTransfers.h"
#include "analysis/sync/DeviceWaitLoops.h"
#include "analysis/sync/NonBlockingStreams.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/Basic/SourceManager.h"
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p For starts its counter \p VD at 0 ('for (int t = 0; ...)').
bool startsAtZero(const ForStmt *For, const VarDecl *VD) {
  const Stmt *Init = For->getInit();
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    if (DS->isSingleDecl() && DS->getSingleDecl() == VD)
      Start = VD->getInit();
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
    if (BO->getOpcode() == BO_Assign && declRefVar(BO->getLHS()) == VD)
      Start = BO->getRHS();
  }
  const auto *Zero =
      Start ? dyn_cast<IntegerLiteral>(Start->IgnoreParenImpCasts()) : nullptr;
  return Zero && Zero->getValue() == 0;
}

struct LegacyState {
  /// Legacy-stream operations that may still be pending.
  std::set<const CallExpr *> Pending;
  /// Per event recorded on the legacy stream on every path: the operations
  /// it covers.
  std::map<StreamRef, std::set<const CallExpr *>> EventCovers;
  /// Library handles bound to the same stream on every path.
  HandleStreams Bound;
  /// Finding a function's CalleeLegacyWork: the caller's legacy work, in
  /// flight at the entry, may still be on some path.
  bool EntryPending = false;
  bool operator==(const LegacyState &O) const {
    return Pending == O.Pending && EventCovers == O.EventCovers &&
           Bound == O.Bound && EntryPending == O.EntryPending;
  }
  /// A host wait for the legacy stream.
  void waitedForLegacy() {
    Pending.clear();
    EntryPending = false;
  }
};

/// The earlier of two operations in source order (either may be null).
const CallExpr *earlier(const CallExpr *A, const CallExpr *B,
                        const SourceManager &SM) {
  if (!A || !B)
    return A ? A : B;
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(B->getBeginLoc()),
                                      SM.getExpansionLoc(A->getBeginLoc()))
             ? B
             : A;
}

using HoldMap = std::map<const CallExpr *, const CallExpr *>;

class LegacyDataflow {
public:
  using State = LegacyState;

  LegacyDataflow(const FunctionDecl *FD, ASTContext &Ctx, bool PerThread,
                 SyncSummaries &Syncs, const StreamCreations &Created,
                 LegacyCallees &Callees, CalleeLegacyWork *Summary = nullptr)
      : FD(FD), Ctx(Ctx), PerThread(PerThread), Syncs(Syncs), Created(Created),
        WaitLoops(Ctx.getSourceManager()), Callees(Callees), Summary(Summary) {}

  State entryState() const {
    State S;
    S.EntryPending = Summary != nullptr;
    return S;
  }
  void join(State &Into, const State &From) const {
    Into.EntryPending |= From.EntryPending;
    Into.Pending.insert(From.Pending.begin(), From.Pending.end());
    intersectSetMaps(Into.EventCovers, From.EventCovers);
    intersectEqualMaps(Into.Bound, From.Bound);
  }
  bool transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    // A loop that waits for the device in every iteration runs at least
    // once (DeviceWaitLoops.h).
    if (WaitLoops.leaves(From, SuccIndex, Syncs.callSyncsQuery()))
      S.waitedForLegacy();
    return true;
  }
  void transfer(const CFGElement &E, State &S) const { step(E, S, nullptr); }
  void replay(const CFGElement &E, State &S, HoldMap &Held) const {
    step(E, S, &Held);
  }

private:
  bool isLegacy(const StreamRef &S, const Expr *Arg) const {
    return S.K == StreamRef::Kind::Legacy &&
           !isPerThreadStream(S, Arg, PerThread);
  }
  /// Work the legacy stream holds back: a created blocking stream, or the
  /// per-thread stream ("synchronizes with the legacy default stream").
  bool isHeldBack(const StreamRef &S, const Expr *Arg) const {
    switch (S.K) {
    case StreamRef::Kind::Named:
    case StreamRef::Kind::ArrayElement:
      return !Created.isNonBlocking(S.Decl);
    case StreamRef::Kind::PerThread:
    case StreamRef::Kind::Legacy:
      return isPerThreadStream(S, Arg, PerThread);
    case StreamRef::Kind::Unknown:
      return false;
    }
    return false;
  }

  /// Whether the condition \p Cond of \p S uses the counter of a loop
  /// around it ('if (i == 3)'): each iteration may take another arm, and
  /// one iteration's legacy work holds back the next one's.
  bool changesPerIteration(const Expr *Cond, const Stmt *S) const {
    for (const Stmt *Loop = enclosingLoop(S, FD, Parents, Ctx); Loop;
         Loop = enclosingLoop(Loop, FD, Parents, Ctx))
      if (usesLoopCounter(Cond, Loop))
        return true;
    return false;
  }

  /// True if \p A and \p B lie in the two arms of one if/else (or ?:):
  /// 'if (useStreams) launch on s; else launch on 0;' is one launch per
  /// pass, whichever way a later pass goes, unless the condition changes
  /// with a loop's counter.
  bool inExclusiveBranches(const Stmt *A, const Stmt *B,
                           bool WithinOnePass = false) const {
    llvm::DenseMap<const Stmt *, const Stmt *> ChildOnPathToA;
    const Stmt *Child = A;
    for (const Stmt *Parent = Parents.parent(FD, A); Parent;
         Parent = Parents.parent(FD, Parent)) {
      ChildOnPathToA[Parent] = Child;
      Child = Parent;
    }
    Child = B;
    for (const Stmt *Parent = Parents.parent(FD, B); Parent;
         Parent = Parents.parent(FD, Parent)) {
      auto It = ChildOnPathToA.find(Parent);
      if (It != ChildOnPathToA.end()) {
        const Stmt *ArmA = It->second, *ArmB = Child;
        if (const auto *If = dyn_cast<IfStmt>(Parent))
          return ArmA != ArmB && ArmA != If->getCond() &&
                 ArmB != If->getCond() && If->getElse() &&
                 (WithinOnePass || !changesPerIteration(If->getCond(), If));
        if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
          return ArmA != ArmB && ArmA != CO->getCond() &&
                 ArmB != CO->getCond() &&
                 (WithinOnePass || !changesPerIteration(CO->getCond(), CO));
        return false;
      }
      Child = Parent;
    }
    return false;
  }

  /// Whether \p Op runs in the first iteration of \p Loop only: under
  /// 'if (t == 0)' (no else) where t is the loop's counter, from 0.
  bool firstIterationOnly(const Stmt *Op, const Stmt *Loop) const {
    const auto *For = dyn_cast<ForStmt>(Loop);
    if (!For)
      return false;
    const Stmt *Child = Op;
    for (const Stmt *P = Parents.parent(FD, Op); P && P != Loop;
         Child = P, P = Parents.parent(FD, P)) {
      const auto *If = dyn_cast<IfStmt>(P);
      if (!If || If->getThen() != Child || If->getElse())
        continue;
      auto Test = counterCondition(If->getCond(), Ctx);
      if (Test && Test->second == CounterTest::FalseIffAdvanced &&
          startsAtZero(For, Test->first))
        return true;
    }
    return false;
  }

  /// Whether \p Later, issued after \p Legacy in the same pass, may read
  /// what it wrote: it takes a buffer of the same variable ('seed(u[0])',
  /// then 'step(u[i])' on a created stream), and \p Legacy runs once (in no
  /// loop, or in a loop's first iteration only: a loop's next iteration
  /// would issue it again behind the work it seems to feed). The work must
  /// wait for it anyway; the legacy stream's ordering is the dependency.
  bool mayDependOn(const CallExpr *Later, const StreamRef &LaterStream,
                   const CallExpr *Legacy) const {
    if (!issuedAfterInOnePass(Legacy, Later))
      return false;
    for (const Stmt *Loop = enclosingLoop(Legacy, FD, Parents, Ctx); Loop;
         Loop = enclosingLoop(Loop, FD, Parents, Ctx))
      if (!firstIterationOnly(Legacy, Loop))
        return false;
    std::set<const VarDecl *> Written = pointerArguments(Legacy);
    auto Reads = [&](const CallExpr *Op) {
      return llvm::any_of(pointerArguments(Op),
                          [&](const VarDecl *VD) { return Written.count(VD); });
    };
    if (Reads(Later))
      return true;
    // Or its stream already waits for it: earlier work of that stream, in
    // the same pass, reads what it wrote ('step<<<.., halo>>>(u)', then a
    // halo exchange on 'halo').
    if (Issued.empty())
      collectIssued(FD->getBody());
    return llvm::any_of(Issued, [&](const auto &Op) {
      return Op.second == LaterStream && Op.first != Later &&
             issuedAfterInOnePass(Legacy, Op.first) &&
             issuedAfterInOnePass(Op.first, Later) && Reads(Op.first);
    });
  }

  /// Whether \p B comes after \p A in source order and a pass may run
  /// both (they are not the two arms of one branch).
  bool issuedAfterInOnePass(const CallExpr *A, const CallExpr *B) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getEndLoc()),
                                        SM.getExpansionLoc(B->getBeginLoc())) &&
           !inExclusiveBranches(A, B, /*WithinOnePass=*/true);
  }

  void collectIssued(const Stmt *S) const {
    if (!S)
      return;
    if (std::optional<AsyncOperation> Op = asyncOperation(S))
      Issued.push_back({Op->Call, streamRef(Op->Stream)});
    for (const Stmt *Child : S->children())
      collectIssued(Child);
  }

  /// \p Later, work on a created blocking stream (or a call that issues
  /// such work first), is issued in \p S: the legacy work in flight holds
  /// it back, and so does the caller's where this finds a summary.
  void heldBack(const CallExpr *Later, const StreamRef &Stream, const State &S,
                HoldMap *Held) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Summary && S.EntryPending)
      Summary->FirstHeldBack = earlier(Summary->FirstHeldBack, Later, SM);
    if (!Held)
      return;
    for (const CallExpr *Legacy : S.Pending) {
      if (inExclusiveBranches(Legacy, Later) ||
          mayDependOn(Later, Stream, Legacy))
        continue;
      auto [It, New] = Held->insert({Legacy, Later});
      if (!New && SM.isBeforeInTranslationUnit(Later->getBeginLoc(),
                                               It->second->getBeginLoc()))
        It->second = Later;
    }
  }

  void step(const CFGElement &E, State &S, HoldMap *Held) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      return;
    if (recordBinding(dyn_cast<CallExpr>(CS->getStmt()), S.Bound))
      return;
    // Legacy work is the unit's own copies and launches, and library work
    // on a legacy stream it names; what holds back
    // includes a GPU library's work on a created stream (a handle bound to
    // it, or a stream given).
    std::optional<AsyncOperation> Op = asyncOperation(CS->getStmt());
    bool Library = false;
    if (!Op)
      if (std::optional<AsyncOperation> Work =
              streamWork(CS->getStmt(), Ctx, &S.Bound);
          Work && Work->Call->getDirectCallee() &&
          !isOpaqueFunction(Work->Call->getDirectCallee(), Ctx)) {
        Op = Work;
        Library = true;
      }
    if (Op) {
      StreamRef Stream = streamRef(Op->Stream);
      if (isLegacy(Stream, Op->Stream)) {
        // The unit's own copies and launches; a graph launch or a library's
        // work where the code names the legacy stream ('cudaGraphLaunch(g,
        // 0)', 'cublasSetStream(h, 0)'), not where a library's stream
        // parameter is left to its default.
        if (!Library || !isa<CXXDefaultArgExpr>(Op->Stream))
          S.Pending.insert(Op->Call);
      } else if (isHeldBack(Stream, Op->Stream)) {
        heldBack(Op->Call, Stream, S, Held);
      }
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
    if (!Call)
      return;
    const ApiSpec *Api = lookupApi(Call);
    // A function of the unit that issues work on the stream its caller
    // passes, given the legacy stream ('copyAsync(d, h, n, 0)'): the call is
    // the unit's own legacy work, as the copy in its body would be.
    if (!Api)
      if (const Expr *Given = streamArgumentOf(Call, Issuers.work(Call));
          Given && isLegacy(streamRef(Given), Given)) {
        S.Pending.insert(Call);
        return;
      }
    if (!Api) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const CalleeLegacyWork *Work = Callee ? Callees.of(Callee) : nullptr;
      // Its first work on a created stream, before it waits: held back by
      // the legacy work in flight here.
      if (Work && Work->FirstHeldBack)
        heldBack(Call, StreamRef::unknown(), S, Held);
      // A function of the translation unit that synchronizes the device.
      // Only a device sync ends every stream's work; with none pending it
      // cannot matter, and is not asked.
      const SyncSummary *Summary = nullptr;
      if (Callee && (!S.Pending.empty() || S.EntryPending) &&
          Syncs.callSyncs(Call, Callee, Summary).Device)
        S.waitedForLegacy();
      // It returns with legacy work in flight: the call is legacy work.
      if (Work && Work->LeftInFlight)
        S.Pending.insert(Call);
      return;
    }
    switch (Api->Kind) {
    case ApiKind::DeviceSync:
      S.waitedForLegacy();
      break;
    case ApiKind::StreamSync: {
      const Expr *Arg = Api->arg(Call, ArgRole::Stream);
      StreamRef Stream = streamRef(Arg);
      if (isLegacy(Stream, Arg) || Stream.K == StreamRef::Kind::Unknown)
        S.waitedForLegacy();
      break;
    }
    case ApiKind::EventRecord: {
      const Expr *Arg = Api->arg(Call, ArgRole::Stream);
      StreamRef Event = streamRef(Api->arg(Call, ArgRole::Event));
      if (Event.K != StreamRef::Kind::Unknown && isLegacy(streamRef(Arg), Arg))
        S.EventCovers[Event] = S.Pending;
      break;
    }
    case ApiKind::EventSync: {
      auto It = S.EventCovers.find(streamRef(Api->arg(Call, ArgRole::Event)));
      if (It != S.EventCovers.end())
        for (const CallExpr *Op : It->second)
          S.Pending.erase(Op);
      break;
    }
    case ApiKind::Copy:
      // A blocking copy with host memory waits for the legacy stream.
      if (isHostSynchronization(Call, Ctx))
        S.waitedForLegacy();
      break;
    case ApiKind::Release:
      if (Api->Mode == ApiMode::Blocking) // cudaFree, cudaFreeHost
        S.waitedForLegacy();
      break;
    default:
      break;
    }
  }

  const FunctionDecl *FD;
  ASTContext &Ctx;
  bool PerThread;
  SyncSummaries &Syncs;
  /// FD's statements' parents, mapped at the first held-back operation.
  mutable BodyParents Parents;
  /// FD's async operations and their streams, found at the first question.
  mutable std::vector<std::pair<const CallExpr *, StreamRef>> Issued;
  const StreamCreations &Created;
  DeviceWaitLoops WaitLoops;
  LegacyCallees &Callees;
  /// The unit's functions that leave work in flight, each call asked once.
  CallsThatIssue Issuers{Ctx};
  /// Where a function's CalleeLegacyWork is being found, that.
  CalleeLegacyWork *Summary;
};

} // namespace

const CalleeLegacyWork *LegacyCallees::of(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Def->isDependentContext() || lookupApi(Def) ||
      isOpaqueFunction(Def, Ctx) ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return nullptr;
  auto [It, New] = Known.try_emplace(Def);
  if (!New)
    return It->second ? &*It->second : nullptr;
  CalleeLegacyWork Work;
  if (std::unique_ptr<CFG> Cfg = buildAnalysisCFG(Def, Ctx)) {
    LegacyDataflow Dataflow(Def, Ctx, usesPerThreadDefaultStream(Def), Syncs,
                            Created, *this, &Work);
    auto In = solveForward(*Cfg, Dataflow);
    if (std::optional<LegacyState> Exit = returnState(*Cfg, Dataflow, In))
      for (const CallExpr *Legacy : Exit->Pending)
        Work.LeftInFlight =
            earlier(Work.LeftInFlight, Legacy, Ctx.getSourceManager());
  }
  // std::map keeps It valid while recursive calls add entries.
  It->second = Work;
  return &*It->second;
}

HoldMap legacyWorkHoldingBack(const FunctionDecl *FD, ASTContext &Ctx,
                              bool PerThread, SyncSummaries &Syncs,
                              const StreamCreations &Created,
                              LegacyCallees &Callees) {
  HoldMap Held;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx);
  if (!Cfg)
    return Held;
  LegacyDataflow Dataflow(FD, Ctx, PerThread, Syncs, Created, Callees);
  solveAndReplay(*Cfg, Dataflow, Held);
  return Held;
}

} // namespace cuda_async_lint
