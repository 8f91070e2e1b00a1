//===- SyncInLoopCheck.cpp - cuda-async-sync-in-loop ----------------------===//

#include "SyncInLoopCheck.h"
#include "analysis/Loops.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "api/StreamRef.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

SyncInLoopCheck::SyncInLoopCheck(DiagnosticSink &Sink)
    : Check("cuda-async-sync-in-loop", Sink) {}

void SyncInLoopCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(anyOf(apiCall(ApiKind::StreamSync), apiCall(ApiKind::DeviceSync),
                     apiCall(ApiKind::EventSync),
                     apiCall(ApiKind::Copy, ApiMode::Blocking),
                     apiCall(ApiKind::Memset, ApiMode::Blocking)),
               forFunction(functionDecl().bind("function")))
          .bind("sync"),
      this);
}

namespace {

/// An async operation of the loop body, or an event record.
struct Issued {
  const CallExpr *Call;
  StreamRef Stream;
  /// The stream argument as written; null when omitted.
  const Expr *StreamArg = nullptr;
  /// For an event record: the event.
  const Expr *Event = nullptr;
};

/// The async operations and event records of a loop body at its own level:
/// nested loops (an inner issuing loop) and lambdas are not looked into.
class IterationOps : public RecursiveASTVisitor<IterationOps> {
public:
  explicit IterationOps(ASTContext &Ctx) : Ctx(Ctx) {}
  std::vector<Issued> Ops, Records;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseForStmt(ForStmt *) { return true; }
  bool TraverseWhileStmt(WhileStmt *) { return true; }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *) { return true; }
  bool TraverseDoStmt(DoStmt *S) {
    // A macro's do { } while (0) is part of the body.
    return isRepeatingLoop(S, Ctx) || RecursiveASTVisitor::TraverseDoStmt(S);
  }

  bool VisitStmt(Stmt *S) {
    if (std::optional<AsyncOperation> Op = asyncOperation(S)) {
      Ops.push_back({Op->Call, streamRef(Op->Stream), Op->Stream});
      return true;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    const ApiSpec *Api = lookupApi(Call);
    if (Api && Api->Kind == ApiKind::EventRecord)
      Records.push_back({Call, streamRef(Api->arg(Call, ArgRole::Stream)),
                         Api->arg(Call, ArgRole::Stream),
                         Api->arg(Call, ArgRole::Event)});
    return true;
  }

private:
  ASTContext &Ctx;
};

/// True if \p A and \p B are the same expression: the same event variable,
/// or the same element (events[i] and events[i], not events[(i + 1) % 2]).
bool sameExpression(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// True if \p Stream (an argument, null when omitted) names the default
/// stream of a per-thread build: the per-thread stream.
bool isPerThreadDefault(const StreamRef &S, const Expr *Stream,
                        bool PerThread) {
  return S.K == StreamRef::Kind::PerThread ||
         (PerThread && S.K == StreamRef::Kind::Legacy &&
          !isExplicitLegacyStream(Stream));
}

/// True if waiting on \p Sync covers operation \p Op on its stream. In a
/// per-thread build, 0 and blocking calls wait for the per-thread stream
/// only.
bool covers(const CallExpr *Sync, const ApiSpec &Api, const Issued &Op,
            bool PerThread) {
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
  case ApiKind::Memset:
    // Blocking calls wait for the default stream (and, in legacy builds,
    // for blocking streams: their flags are not known here, so only work on
    // the default stream itself counts).
    return PerThread ? OpOnPerThread
                     : Op.Stream.K == K::Legacy && !OpOnPerThread;
  default:
    return false;
  }
}

} // namespace

void SyncInLoopCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Sync = R.Nodes.getNodeAs<CallExpr>("sync");
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  const ApiSpec *Api = lookupApi(Sync);
  if (!Api || Function->isDependentContext())
    return;
  const Stmt *Loop = enclosingLoop(Sync, *R.Context);
  if (!Loop)
    return;
  IterationOps Body(*R.Context);
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  // A loop that issues a single operation has nothing to overlap.
  if (Body.Ops.size() < 2)
    return;
  const SourceManager &SM = *R.SourceManager;
  auto Before = [&](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  };

  bool PerThread = PerThreadDefault.get(Function, usesPerThreadDefaultStream);
  // The first operation of this iteration, issued before the wait, that the
  // wait covers. An event covers what its stream issued before its record,
  // and only a record of this iteration counts: waiting on an earlier
  // iteration's event is double buffering.
  const Issued *Waited = nullptr;
  for (const Issued &Op : Body.Ops) {
    if (!Before(Op.Call, Sync))
      continue;
    bool Covered = false;
    if (Api->Kind == ApiKind::EventSync) {
      const Expr *Event = Api->arg(Sync, ArgRole::Event);
      for (const Issued &Record : Body.Records)
        Covered |= Before(Op.Call, Record.Call) && Before(Record.Call, Sync) &&
                   Record.Stream == Op.Stream &&
                   sameExpression(Record.Event, Event, *R.Context);
    } else {
      Covered = covers(Sync, *Api, Op, PerThread);
    }
    if (Covered) {
      Waited = &Op;
      break;
    }
  }
  if (!Waited)
    return;

  Finding F;
  F.Loc = Sync->getBeginLoc();
  F.Message = "'" + Api->Name.str() +
              "' inside the loop waits for work issued earlier in the same "
              "iteration, so the iterations cannot overlap; move the wait "
              "after the loop, or wait for the previous iteration's work "
              "(double buffering)";
  F.Notes.push_back({Waited->Call->getBeginLoc(),
                     "it waits for this asynchronous operation"});
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(SyncInLoopCheck)

} // namespace cuda_async_lint
