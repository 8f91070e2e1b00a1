//===- IterationWork.cpp --------------------------------------------------===//

#include "IterationWork.h"
#include "CallsThatIssue.h"
#include "IterationOverlap.h"
#include "analysis/code/AccessPaths.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "analysis/dataflow/Loops.h"
#include "analysis/sync/DeviceWaitLoops.h"
#include "api/StreamRef.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Operations in flight, each with the loop it was aged through
/// (WaitedOperation::AgedThrough).
using AgedOps = std::map<AsyncOperation, const Stmt *>;

/// Whether loop \p Inner is written within loop \p Outer.
bool within(const Stmt *Inner, const Stmt *Outer, const SourceManager &SM) {
  return SM.isPointWithin(SM.getExpansionLoc(Inner->getBeginLoc()),
                          SM.getExpansionLoc(Outer->getBeginLoc()),
                          SM.getExpansionLoc(Outer->getEndLoc()));
}

/// The less aged of two loops an operation was aged through on two paths
/// (null, none, is least): on some path it is that recent.
const Stmt *lessAged(const Stmt *A, const Stmt *B, const SourceManager &SM) {
  if (!A || !B)
    return nullptr;
  return within(A, B, SM) ? A : B;
}

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
  AgedOps Pending;
  /// Per event recorded on every path: the operations it covers.
  std::map<EventKey, AgedOps> EventCovers;
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
      : Ctx(Ctx), PerThread(PerThread), Created(Created),
        WaitLoops(Ctx.getSourceManager()) {}

  State entryState() const { return {}; }

  void join(State &Into, const State &From) const {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const auto &[Op, Aged] : From.Pending) {
      auto [It, New] = Into.Pending.try_emplace(Op, Aged);
      if (!New)
        It->second = lessAged(It->second, Aged, SM);
    }
    // An event covers, on every path, what it covers on both.
    for (auto It = Into.EventCovers.begin(); It != Into.EventCovers.end();) {
      auto Other = From.EventCovers.find(It->first);
      if (Other == From.EventCovers.end()) {
        It = Into.EventCovers.erase(It);
        continue;
      }
      AgedOps &Ops = It->second;
      for (auto Op = Ops.begin(); Op != Ops.end();) {
        auto Same = Other->second.find(Op->first);
        if (Same == Other->second.end()) {
          Op = Ops.erase(Op);
          continue;
        }
        Op->second = lessAged(Op->second, Same->second, SM);
        ++Op;
      }
      ++It;
    }
    Into.Capturing |= From.Capturing;
    intersectEqualMaps(Into.Bound, From.Bound);
  }

  /// The back edge of a loop: its body's operations now belong to the
  /// previous iteration. Those of a loop that fans work out over streams
  /// stay the enclosing loop's current work; any other loop's are done
  /// with (an epoch of batches on one stream, waited for after it, is a
  /// barrier per epoch, not a wait per step).
  bool transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    // A loop that waits for the device in every iteration runs at least
    // once (DeviceWaitLoops.h): its exit waits for everything, as a device
    // sync does ('for (dev...) { cudaSetDevice(dev); cudaDeviceSynchronize();
    // }').
    auto NoCallSyncs = [](const CallExpr *, const FunctionDecl *,
                          const SyncSummary *&Summary) {
      Summary = nullptr;
      return CallSyncs{};
    };
    if (WaitLoops.leaves(From, SuccIndex, NoCallSyncs))
      S.Pending.clear();
    const Stmt *Loop = From.getLoopTarget();
    if (!Loop)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    auto InLoop = [&](const AsyncOperation &Op) {
      return isWrittenWithin(Op.Call, Loop, SM);
    };
    bool FansOut = fansOut(Loop);
    auto Age = [&](AgedOps &Ops) {
      for (auto It = Ops.begin(); It != Ops.end();) {
        if (!InLoop(It->first)) {
          ++It;
          continue;
        }
        if (!FansOut) {
          It = Ops.erase(It);
          continue;
        }
        if (!It->second || within(It->second, Loop, SM))
          It->second = Loop;
        ++It;
      }
    };
    Age(S.Pending);
    for (auto &[Event, Ops] : S.EventCovers)
      Age(Ops);
    return true;
  }

  void transfer(const CFGElement &E, State &S) const { step(E, S, nullptr); }

  void
  replay(const CFGElement &E, State &S,
         std::map<const CallExpr *, std::vector<WaitedOperation>> &Out) const {
    step(E, S, &Out);
  }

private:
  /// Whether \p Loop's iterations each issue on another stream (cached).
  bool fansOut(const Stmt *Loop) const {
    auto [It, New] = FansOut.try_emplace(Loop, false);
    if (New)
      It->second = iterationsCanOverlap(Loop, PerThread, Ctx);
    return It->second;
  }

  void
  step(const CFGElement &E, State &S,
       std::map<const CallExpr *, std::vector<WaitedOperation>> *Out) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      return;
    const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
    if (recordBinding(Call, S.Bound))
      return;
    std::optional<AsyncOperation> Op = streamWork(CS->getStmt(), Ctx, &S.Bound);
    // A call of the unit's that returns with its work in flight.
    if (!Op && Call)
      Op = Issuers.work(Call);
    if (Op) {
      if (!S.Capturing)
        S.Pending.insert_or_assign(*Op, nullptr);
      // A library algorithm that synchronizes its stream (Thrust's with a
      // synchronizing policy) returns with that stream's work done, its
      // own included; it is no wait a finding could name.
      if (const Expr *Waited = libraryWaitStream(Call)) {
        for (auto It = S.Pending.begin(); It != S.Pending.end();) {
          if (It->first == *Op || libraryWaitCovers(Waited, It->first, Ctx))
            It = S.Pending.erase(It);
          else
            ++It;
        }
      }
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
      AgedOps Covered;
      for (const auto &[Op, Aged] : S.Pending)
        if (streamRef(Op.Stream) == Stream)
          Covered.insert({Op, Aged});
      S.EventCovers[Event] = std::move(Covered);
      return;
    }
    if (!isHostSynchronization(Call, Ctx))
      return;
    AgedOps Waited;
    if (Api->Kind == ApiKind::EventSync) {
      auto It =
          S.EventCovers.find(eventKey(Api->arg(Call, ArgRole::Event), Ctx));
      if (It != S.EventCovers.end())
        Waited = It->second;
    } else {
      for (const auto &[Op, Aged] : S.Pending)
        if (syncCovers(Call, *Api, Op, PerThread, Created))
          Waited.insert({Op, Aged});
    }
    if (Out && !Waited.empty()) {
      std::vector<WaitedOperation> &Ops = (*Out)[Call];
      for (const auto &[Op, Aged] : Waited)
        Ops.push_back({Op, Aged});
      const SourceManager &SM = Ctx.getSourceManager();
      llvm::sort(Ops, [&](const WaitedOperation &A, const WaitedOperation &B) {
        return SM.isBeforeInTranslationUnit(A.Op.Call->getBeginLoc(),
                                            B.Op.Call->getBeginLoc());
      });
    }
    for (const auto &[Op, Aged] : Waited)
      S.Pending.erase(Op);
  }

  ASTContext &Ctx;
  bool PerThread;
  const StreamCreations &Created;
  DeviceWaitLoops WaitLoops;
  mutable llvm::DenseMap<const Stmt *, bool> FansOut;
  CallsThatIssue Issuers{Ctx};
};

/// Whether the blocking copy \p Copy moves the device buffer an argument of
/// \p Op names, written alike ('d[i]', 'd + i * n'): the operand of a
/// kernel, or a side of an asynchronous copy.
bool copiesOperandOf(const CallExpr *Copy, const ApiSpec &Api,
                     const AsyncOperation &Op) {
  const FunctionDecl *FD = Copy->getDirectCallee();
  if (!FD || Api.Kind != ApiKind::Copy)
    return false;
  const ASTContext &Ctx = FD->getASTContext();
  std::optional<CopyDirection> Dir = copyDirection(Copy, Api, Ctx);
  const Expr *Device = nullptr;
  if (Dir == CopyDirection::DeviceToHost)
    Device = Api.arg(Copy, ArgRole::Src);
  else if (Dir == CopyDirection::HostToDevice)
    Device = Api.arg(Copy, ArgRole::Dst);
  if (!Device)
    return false;
  auto Profile = [&](const Expr *E) {
    llvm::FoldingSetNodeID ID;
    E->IgnoreParenCasts()->Profile(ID, Ctx, /*Canonical=*/true);
    return ID;
  };
  llvm::FoldingSetNodeID Buffer = Profile(Device);
  return llvm::any_of(Op.Call->arguments(), [&](const Expr *Arg) {
    return Arg->getType()->isPointerType() && Profile(Arg) == Buffer;
  });
}

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
    // Whatever the stream, a copy of the device buffer the operation
    // writes or reads waits for it, or the program races (the copy of a
    // kernel's output right after it).
    if (copiesOperandOf(Sync, Api, Op))
      return true;
    if (PerThread)
      return OpOnPerThread;
    return (OpStream.K == K::Legacy && !OpOnPerThread) ||
           ((OpStream.K == K::Named || OpStream.K == K::ArrayElement) &&
            Created.isBlocking(OpStream.Decl));
  default:
    return false;
  }
}

bool libraryWaitCovers(const Expr *Waited, const AsyncOperation &Op,
                       const ASTContext &Ctx) {
  StreamRef W = streamRef(Waited);
  const Expr *On = writtenStream(Op);
  return W.K != StreamRef::Kind::Unknown && streamRef(Op.Stream) == W &&
         !(On && certainlyOtherElement(On, Waited, Ctx));
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

bool WaitedOperation::currentIn(const Stmt *Loop,
                                const SourceManager &SM) const {
  return !AgedThrough || (AgedThrough != Loop && within(AgedThrough, Loop, SM));
}

std::map<const CallExpr *, std::vector<WaitedOperation>>
iterationWaits(const FunctionDecl *FD, ASTContext &Ctx, bool PerThread,
               const StreamCreations &Created) {
  std::map<const CallExpr *, std::vector<WaitedOperation>> Waits;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx);
  if (!Cfg)
    return Waits;
  IterationDataflow Dataflow(Ctx, PerThread, Created);
  solveAndReplay(*Cfg, Dataflow, Waits);
  return Waits;
}

} // namespace cuda_async_lint
