//===- LegacyStreamWork.cpp -----------------------------------------------===//

#include "LegacyStreamWork.h"
#include "IterationWork.h"
#include "analysis/dataflow/BodyParents.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/Loops.h"
#include "analysis/pending/PendingTransfers.h"
#include "analysis/sync/NonBlockingStreams.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/Basic/SourceManager.h"
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

struct LegacyState {
  /// Legacy-stream operations that may still be pending.
  std::set<const CallExpr *> Pending;
  /// Per event recorded on the legacy stream on every path: the operations
  /// it covers.
  std::map<StreamRef, std::set<const CallExpr *>> EventCovers;
  /// Library handles bound to the same stream on every path.
  HandleStreams Bound;
  bool operator==(const LegacyState &O) const {
    return Pending == O.Pending && EventCovers == O.EventCovers &&
           Bound == O.Bound;
  }
};

using HoldMap = std::map<const CallExpr *, const CallExpr *>;

class LegacyDataflow {
public:
  using State = LegacyState;

  LegacyDataflow(const FunctionDecl *FD, ASTContext &Ctx, bool PerThread,
                 SyncSummaries &Syncs)
      : FD(FD), Ctx(Ctx), PerThread(PerThread), Syncs(Syncs),
        NonBlocking(nonBlockingStreams(FD, Ctx)) {}

  State entryState() const { return {}; }
  void join(State &Into, const State &From) const {
    Into.Pending.insert(From.Pending.begin(), From.Pending.end());
    intersectSetMaps(Into.EventCovers, From.EventCovers);
    intersectEqualMaps(Into.Bound, From.Bound);
  }
  bool transferEdge(const CFGBlock &, unsigned, State &) const { return true; }
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
      return !NonBlocking.count(S.Decl);
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
  bool inExclusiveBranches(const Stmt *A, const Stmt *B) const {
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
                 !changesPerIteration(If->getCond(), If);
        if (const auto *CO = dyn_cast<ConditionalOperator>(Parent))
          return ArmA != ArmB && ArmA != CO->getCond() &&
                 ArmB != CO->getCond() &&
                 !changesPerIteration(CO->getCond(), CO);
        return false;
      }
      Child = Parent;
    }
    return false;
  }

  void step(const CFGElement &E, State &S, HoldMap *Held) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      return;
    if (recordBinding(dyn_cast<CallExpr>(CS->getStmt()), S.Bound))
      return;
    // Legacy work is the unit's own copies and launches; what holds back
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
        if (!Library)
          S.Pending.insert(Op->Call);
      } else if (Held && isHeldBack(Stream, Op->Stream)) {
        const SourceManager &SM = Ctx.getSourceManager();
        for (const CallExpr *Legacy : S.Pending) {
          if (inExclusiveBranches(Legacy, Op->Call))
            continue;
          auto [It, New] = Held->insert({Legacy, Op->Call});
          if (!New && SM.isBeforeInTranslationUnit(Op->Call->getBeginLoc(),
                                                   It->second->getBeginLoc()))
            It->second = Op->Call;
        }
      }
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
    if (!Call)
      return;
    const ApiSpec *Api = lookupApi(Call);
    if (!Api) {
      // A function of the translation unit that synchronizes the device.
      // Only a device sync ends every stream's work; with none pending it
      // cannot matter, and is not asked.
      const FunctionDecl *FD = Call->getDirectCallee();
      const SyncSummary *Summary = nullptr;
      if (FD && !S.Pending.empty() && Syncs.callSyncs(Call, FD, Summary).Device)
        S.Pending.clear();
      return;
    }
    switch (Api->Kind) {
    case ApiKind::DeviceSync:
      S.Pending.clear();
      break;
    case ApiKind::StreamSync: {
      const Expr *Arg = Api->arg(Call, ArgRole::Stream);
      StreamRef Stream = streamRef(Arg);
      if (isLegacy(Stream, Arg) || Stream.K == StreamRef::Kind::Unknown)
        S.Pending.clear();
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
        S.Pending.clear();
      break;
    case ApiKind::Release:
      if (Api->Mode == ApiMode::Blocking) // cudaFree, cudaFreeHost
        S.Pending.clear();
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
  std::set<const ValueDecl *> NonBlocking;
};

} // namespace

HoldMap legacyWorkHoldingBack(const FunctionDecl *FD, ASTContext &Ctx,
                              bool PerThread, SyncSummaries &Syncs) {
  HoldMap Held;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx);
  if (!Cfg)
    return Held;
  LegacyDataflow Dataflow(FD, Ctx, PerThread, Syncs);
  solveAndReplay(*Cfg, Dataflow, Held);
  return Held;
}

} // namespace cuda_async_lint
