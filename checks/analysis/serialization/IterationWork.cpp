//===- IterationWork.cpp --------------------------------------------------===//

#include "IterationWork.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/Loops.h"
#include "api/StreamRef.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

using OpSet = std::set<AsyncOperation>;

/// An event as recorded or waited for: the variable or field it is, and,
/// for an element of an array of events ('done[i % 2]',
/// 'bufs[curr].copy_done'), which element as written. A wait on another
/// element than the one just recorded ('done[(i + 1) % 2]',
/// 'bufs[prev].copy_done') waits for an earlier record of that element:
/// the previous iteration's, in a ring of events.
struct EventKey {
  StreamRef Event;
  unsigned Element;
  bool operator<(const EventKey &O) const {
    return std::tie(Event, Element) < std::tie(O.Event, O.Element);
  }
  bool operator==(const EventKey &O) const {
    return Event == O.Event && Element == O.Element;
  }
};

EventKey eventKey(const Expr *E, const ASTContext &Ctx) {
  StreamRef Ref = streamRef(E);
  if (Ref.K != StreamRef::Kind::ArrayElement || !E)
    return {Ref, 0};
  llvm::FoldingSetNodeID ID;
  E->IgnoreParenImpCasts()->Profile(ID, Ctx, /*Canonical=*/true);
  return {Ref, ID.ComputeHash()};
}

struct WorkState {
  OpSet Pending;
  /// Per event recorded on every path: the operations it covers.
  std::map<EventKey, OpSet> EventCovers;
  /// Library handles bound to the same stream on every path.
  HandleStreams Bound;
  /// A stream capture is under way on some path: work issued now is
  /// recorded into a graph, not run (cudaStreamBeginCapture).
  bool Capturing = false;
  bool operator==(const WorkState &O) const {
    return Pending == O.Pending && EventCovers == O.EventCovers &&
           Bound == O.Bound && Capturing == O.Capturing;
  }
};

class IterationDataflow {
public:
  using State = WorkState;

  IterationDataflow(ASTContext &Ctx, bool PerThread,
                    const StreamCreations &Created)
      : Ctx(Ctx), PerThread(PerThread), Created(Created) {}

  State entryState() const { return {}; }

  void join(State &Into, const State &From) const {
    Into.Pending.insert(From.Pending.begin(), From.Pending.end());
    intersectSetMaps(Into.EventCovers, From.EventCovers);
    Into.Capturing |= From.Capturing;
    intersectEqualMaps(Into.Bound, From.Bound);
  }

  /// The back edge of a loop: its body's operations now belong to the
  /// previous iteration.
  bool transferEdge(const CFGBlock &From, unsigned, State &S) const {
    const Stmt *Loop = From.getLoopTarget();
    if (!Loop)
      return true;
    auto InLoop = [&](const AsyncOperation &Op) {
      return isWrittenWithin(Op.Call, Loop, Ctx.getSourceManager());
    };
    for (auto It = S.Pending.begin(); It != S.Pending.end();)
      It = InLoop(*It) ? S.Pending.erase(It) : std::next(It);
    for (auto &[Event, Ops] : S.EventCovers)
      for (auto It = Ops.begin(); It != Ops.end();)
        It = InLoop(*It) ? Ops.erase(It) : std::next(It);
    return true;
  }

  void transfer(const CFGElement &E, State &S) const { step(E, S, nullptr); }

  void
  replay(const CFGElement &E, State &S,
         std::map<const CallExpr *, std::vector<AsyncOperation>> &Out) const {
    step(E, S, &Out);
  }

private:
  void
  step(const CFGElement &E, State &S,
       std::map<const CallExpr *, std::vector<AsyncOperation>> *Out) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      return;
    const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
    if (recordBinding(Call, S.Bound))
      return;
    if (std::optional<AsyncOperation> Op =
            streamWork(CS->getStmt(), Ctx, &S.Bound)) {
      if (!S.Capturing)
        S.Pending.insert(*Op);
      return;
    }
    const ApiSpec *Api = lookupApi(Call);
    if (!Api)
      return;
    if (Api->Kind == ApiKind::CaptureBegin ||
        Api->Kind == ApiKind::CaptureEnd) {
      S.Capturing = Api->Kind == ApiKind::CaptureBegin;
      return;
    }
    if (Api->Kind == ApiKind::EventRecord) {
      EventKey Event = eventKey(Api->arg(Call, ArgRole::Event), Ctx);
      StreamRef Stream = streamRef(Api->arg(Call, ArgRole::Stream));
      OpSet Covered;
      for (const AsyncOperation &Op : S.Pending)
        if (streamRef(Op.Stream) == Stream)
          Covered.insert(Op);
      S.EventCovers[Event] = std::move(Covered);
      return;
    }
    if (!isHostSynchronization(Call, Ctx))
      return;
    OpSet Waited;
    if (Api->Kind == ApiKind::EventSync) {
      auto It =
          S.EventCovers.find(eventKey(Api->arg(Call, ArgRole::Event), Ctx));
      if (It != S.EventCovers.end())
        Waited = It->second;
    } else {
      for (const AsyncOperation &Op : S.Pending)
        if (syncCovers(Call, *Api, Op, PerThread, Created))
          Waited.insert(Op);
    }
    if (Out && !Waited.empty()) {
      std::vector<AsyncOperation> &Ops = (*Out)[Call];
      Ops.assign(Waited.begin(), Waited.end());
      const SourceManager &SM = Ctx.getSourceManager();
      llvm::sort(Ops, [&](const AsyncOperation &A, const AsyncOperation &B) {
        return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                            B.Call->getBeginLoc());
      });
    }
    for (const AsyncOperation &Op : Waited)
      S.Pending.erase(Op);
  }

  ASTContext &Ctx;
  bool PerThread;
  const StreamCreations &Created;
};

} // namespace

bool syncCovers(const CallExpr *Sync, const ApiSpec &Api,
                const AsyncOperation &Op, bool PerThread,
                const StreamCreations &Created) {
  using K = StreamRef::Kind;
  StreamRef OpStream = streamRef(Op.Stream);
  bool OpOnPerThread = isPerThreadStream(OpStream, Op.Stream, PerThread);
  switch (Api.Kind) {
  case ApiKind::DeviceSync:
    return true;
  case ApiKind::StreamSync: {
    const Expr *Arg = Api.arg(Sync, ArgRole::Stream);
    StreamRef S = streamRef(Arg);
    if (S.K == K::Unknown || OpStream.K == K::Unknown)
      return false; // Not proven the same stream: stay silent.
    if (isPerThreadStream(S, Arg, PerThread))
      return OpOnPerThread;
    if (S.K == K::Legacy) // The legacy stream waits for blocking streams.
      return !OpOnPerThread;
    return S == OpStream;
  }
  case ApiKind::Copy:
    // Blocking copies run on the default stream. In legacy builds that
    // waits for every blocking stream: those this unit creates without
    // cudaStreamNonBlocking (a stream created elsewhere may be one).
    if (PerThread)
      return OpOnPerThread;
    return (OpStream.K == K::Legacy && !OpOnPerThread) ||
           ((OpStream.K == K::Named || OpStream.K == K::ArrayElement) &&
            Created.isBlocking(OpStream.Decl));
  default:
    return false;
  }
}

bool isHostSynchronization(const CallExpr *Call, const ASTContext &Ctx) {
  const ApiSpec *Api = lookupApi(Call);
  if (!Api)
    return false;
  switch (Api->Kind) {
  case ApiKind::StreamSync:
  case ApiKind::DeviceSync:
  case ApiKind::EventSync:
    return true;
  case ApiKind::Copy: {
    // "For transfers from device memory to device memory, no host-side
    // synchronization is performed"; a direction not known may be that.
    if (Api->Mode != ApiMode::Blocking)
      return false;
    std::optional<CopyDirection> Dir = copyDirection(Call, *Api, Ctx);
    return Dir && (*Dir == CopyDirection::HostToDevice ||
                   *Dir == CopyDirection::DeviceToHost);
  }
  default:
    // Blocking memsets of device memory return before they are done.
    return false;
  }
}

std::map<const CallExpr *, std::vector<AsyncOperation>>
iterationWaits(const FunctionDecl *FD, ASTContext &Ctx, bool PerThread,
               const StreamCreations &Created) {
  std::map<const CallExpr *, std::vector<AsyncOperation>> Waits;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx);
  if (!Cfg)
    return Waits;
  IterationDataflow Dataflow(Ctx, PerThread, Created);
  solveAndReplay(*Cfg, Dataflow, Waits);
  return Waits;
}

} // namespace cuda_async_lint
