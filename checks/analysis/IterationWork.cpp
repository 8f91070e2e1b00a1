//===- IterationWork.cpp --------------------------------------------------===//

#include "IterationWork.h"
#include "../api/AsyncOperation.h"
#include "ForwardDataflow.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

bool isPerThreadDefault(const StreamRef &S, const Expr *Stream,
                        bool PerThread) {
  return S.K == StreamRef::Kind::PerThread ||
         (PerThread && S.K == StreamRef::Kind::Legacy &&
          !isExplicitLegacyStream(Stream));
}

struct OpLess {
  bool operator()(const IssuedOperation &A, const IssuedOperation &B) const {
    return A.Call < B.Call;
  }
};
using OpSet = std::set<IssuedOperation, OpLess>;

struct WorkState {
  OpSet Pending;
  /// Per event recorded on every path: the operations it covers.
  std::map<StreamRef, OpSet> EventCovers;
  bool operator==(const WorkState &O) const {
    auto SameOps = [](const OpSet &A, const OpSet &B) {
      return A.size() == B.size() &&
             std::equal(A.begin(), A.end(), B.begin(),
                        [](const IssuedOperation &X, const IssuedOperation &Y) {
                          return X.Call == Y.Call;
                        });
    };
    if (!SameOps(Pending, O.Pending) ||
        EventCovers.size() != O.EventCovers.size())
      return false;
    for (auto A = EventCovers.begin(), B = O.EventCovers.begin();
         A != EventCovers.end(); ++A, ++B)
      if (!(A->first == B->first) || !SameOps(A->second, B->second))
        return false;
    return true;
  }
};

class IterationDataflow {
public:
  using State = WorkState;

  IterationDataflow(ASTContext &Ctx, bool PerThread)
      : Ctx(Ctx), PerThread(PerThread) {}

  State entryState() const { return {}; }

  void join(State &Into, const State &From) const {
    Into.Pending.insert(From.Pending.begin(), From.Pending.end());
    intersectSetMaps(Into.EventCovers, From.EventCovers);
  }

  /// The back edge of a loop: its body's operations now belong to the
  /// previous iteration.
  void transferEdge(const CFGBlock &From, unsigned, State &S) const {
    const Stmt *Loop = From.getLoopTarget();
    if (!Loop)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    SourceRange Range(SM.getExpansionLoc(Loop->getBeginLoc()),
                      SM.getExpansionLoc(Loop->getEndLoc()));
    auto InLoop = [&](const IssuedOperation &Op) {
      SourceLocation L = SM.getExpansionLoc(Op.Call->getBeginLoc());
      return !SM.isBeforeInTranslationUnit(L, Range.getBegin()) &&
             !SM.isBeforeInTranslationUnit(Range.getEnd(), L);
    };
    for (auto It = S.Pending.begin(); It != S.Pending.end();)
      It = InLoop(*It) ? S.Pending.erase(It) : std::next(It);
    for (auto &[Event, Ops] : S.EventCovers)
      for (auto It = Ops.begin(); It != Ops.end();)
        It = InLoop(*It) ? Ops.erase(It) : std::next(It);
  }

  void transfer(const CFGElement &E, State &S) const { step(E, S, nullptr); }

  void
  replay(const CFGElement &E, State &S,
         std::map<const CallExpr *, std::vector<IssuedOperation>> &Out) const {
    step(E, S, &Out);
  }

private:
  void
  step(const CFGElement &E, State &S,
       std::map<const CallExpr *, std::vector<IssuedOperation>> *Out) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (!CS)
      return;
    if (std::optional<AsyncOperation> Op = asyncOperation(CS->getStmt())) {
      S.Pending.insert({Op->Call, streamRef(Op->Stream), Op->Stream});
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
    const ApiSpec *Api = lookupApi(Call);
    if (!Api)
      return;
    if (Api->Kind == ApiKind::EventRecord) {
      StreamRef Event = streamRef(Api->arg(Call, ArgRole::Event));
      const Expr *StreamArg = Api->arg(Call, ArgRole::Stream);
      IssuedOperation Record{Call, streamRef(StreamArg), StreamArg};
      OpSet Covered;
      for (const IssuedOperation &Op : S.Pending)
        if (Op.Stream == Record.Stream)
          Covered.insert(Op);
      S.EventCovers[Event] = std::move(Covered);
      return;
    }
    if (!isHostSynchronization(Call, Ctx))
      return;
    OpSet Waited;
    if (Api->Kind == ApiKind::EventSync) {
      auto It = S.EventCovers.find(streamRef(Api->arg(Call, ArgRole::Event)));
      if (It != S.EventCovers.end())
        Waited = It->second;
    } else {
      for (const IssuedOperation &Op : S.Pending)
        if (syncCovers(Call, *Api, Op, PerThread))
          Waited.insert(Op);
    }
    if (Out && !Waited.empty()) {
      std::vector<IssuedOperation> &Ops = (*Out)[Call];
      Ops.assign(Waited.begin(), Waited.end());
      const SourceManager &SM = Ctx.getSourceManager();
      llvm::sort(Ops, [&](const IssuedOperation &A, const IssuedOperation &B) {
        return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                            B.Call->getBeginLoc());
      });
    }
    for (const IssuedOperation &Op : Waited)
      S.Pending.erase(Op);
  }

  ASTContext &Ctx;
  bool PerThread;
};

} // namespace

bool syncCovers(const CallExpr *Sync, const ApiSpec &Api,
                const IssuedOperation &Op, bool PerThread) {
  using K = StreamRef::Kind;
  bool OpOnPerThread = isPerThreadDefault(Op.Stream, Op.StreamArg, PerThread);
  switch (Api.Kind) {
  case ApiKind::DeviceSync:
    return true;
  case ApiKind::StreamSync: {
    const Expr *Arg = Api.arg(Sync, ArgRole::Stream);
    StreamRef S = streamRef(Arg);
    if (S.K == K::Unknown || Op.Stream.K == K::Unknown)
      return false; // Not proven the same stream: stay silent.
    if (isPerThreadDefault(S, Arg, PerThread))
      return OpOnPerThread;
    if (S.K == K::Legacy) // The legacy stream waits for blocking streams.
      return !OpOnPerThread;
    return S == Op.Stream;
  }
  case ApiKind::Copy:
    // Blocking copies wait for the default stream (and, in legacy builds,
    // for blocking streams: their flags are not known here, so only work on
    // the default stream itself counts).
    return PerThread ? OpOnPerThread
                     : Op.Stream.K == K::Legacy && !OpOnPerThread;
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

std::map<const CallExpr *, std::vector<IssuedOperation>>
iterationWaits(const FunctionDecl *FD, ASTContext &Ctx, bool PerThread) {
  std::map<const CallExpr *, std::vector<IssuedOperation>> Waits;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx);
  if (!Cfg)
    return Waits;
  IterationDataflow Dataflow(Ctx, PerThread);
  solveAndReplay(*Cfg, Dataflow, Waits);
  return Waits;
}

} // namespace cuda_async_lint
