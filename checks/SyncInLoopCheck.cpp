//===- SyncInLoopCheck.cpp - cuda-async-sync-in-loop ----------------------===//

#include "SyncInLoopCheck.h"
#include "analysis/code/AccessPaths.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/dataflow/Loops.h"
#include "analysis/serialization/CallsThatWait.h"
#include "analysis/serialization/IterationOverlap.h"
#include "analysis/serialization/IterationResults.h"
#include "analysis/serialization/StreamJoins.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "api/StreamRef.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "cuda-async-lint/ExecutionSpace.h"
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
                     apiCall(ApiKind::Copy, ApiMode::Blocking)),
               inHostFunction(functionDecl().bind("function")))
          .bind("sync"),
      this);
  // Calls of the unit's functions that wait for the work they issue.
  Finder.addMatcher(callOfUserFunction(), this);
}

namespace {

bool endsThePath(const Stmt *S) {
  if (isa<BreakStmt, ReturnStmt, GotoStmt, CXXThrowExpr>(S))
    return true;
  const auto *Call = dyn_cast<CallExpr>(S);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->isNoReturn();
}

/// True if every path from \p Sync leaves \p Loop before the next
/// iteration: a wait before 'break' or 'return' (on convergence, say) runs
/// once, not per iteration.
bool leavesTheLoop(const Stmt *Sync, const Stmt *Loop, const FunctionDecl *FD,
                   BodyParents &Parents, ASTContext &Ctx) {
  const Stmt *Child = Sync;
  for (const Stmt *Parent = Parents.parent(FD, Sync); Parent;
       Parent = Parents.parent(FD, Parent)) {
    if (Parent == Loop || isa<SwitchStmt>(Parent) ||
        isRepeatingLoop(Parent, Ctx))
      return false;
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      bool After = false;
      for (const Stmt *S : Block->body()) {
        if (After && endsThePath(S))
          return true;
        After |= S == Child;
      }
    }
    Child = Parent;
  }
  return false;
}

/// Variables \p Loop's continuation reads: its condition, and the
/// conditions of the branches of its body that break or return.
class LoopControl : public RecursiveASTVisitor<LoopControl> {
public:
  std::set<const VarDecl *> Vars;

  void collect(const Stmt *Loop) {
    reads(loopCondition(Loop));
    TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitIfStmt(IfStmt *If) {
    if (exits(If->getThen()) || exits(If->getElse()))
      reads(If->getCond());
    return true;
  }

private:
  static bool exits(const Stmt *S) {
    if (!S)
      return false;
    if (endsThePath(S))
      return true;
    if (const auto *Block = dyn_cast<CompoundStmt>(S))
      return llvm::any_of(Block->body(), endsThePath);
    return false;
  }
  void reads(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Vars.insert(VD);
    for (const Stmt *Child : S->children())
      reads(Child);
  }
};

/// Whether \p W is work \p Sync does not wait for in the iteration it
/// serializes:
///  - the sync runs in a later iteration of the loop \p W was issued in
///    (the loop whose back edge it crossed): it waits for that loop's
///    previous iteration's work, double buffering for that loop, whatever
///    the loops around it see (TIGRE's solver steps, each waiting at its
///    top for the previous step's downloads);
///  - a stream sync names another element of the array of streams than the
///    one \p W went to, which the iteration analysis counts as one stream:
///    an index that differs by a constant ('stream[dev * n + 2]' after work
///    on 'stream[dev * n + 1]').
bool waitsForOtherWork(const CallExpr *Sync, const WaitedOperation &W,
                       const ASTContext &Ctx) {
  if (W.AgedThrough &&
      isWrittenWithin(Sync, W.AgedThrough, Ctx.getSourceManager()))
    return true;
  const ApiSpec *Api = lookupApi(Sync);
  const Expr *Stream = Api && Api->Kind == ApiKind::StreamSync
                           ? Api->arg(Sync, ArgRole::Stream)
                           : nullptr;
  const Expr *Issued = writtenStream(W.Op);
  return Stream && Issued && certainlyOtherElement(Stream, Issued, Ctx);
}

} // namespace

SyncInLoopCheck::FunctionFacts SyncInLoopCheck::factsOf(const FunctionDecl *FD,
                                                        ASTContext &Ctx) {
  FunctionFacts Facts;
  Facts.PerThread = usesPerThreadDefaultStream(FD);
  if (!Creations)
    Creations.emplace(Ctx);
  Facts.Waits = iterationWaits(FD, Ctx, Facts.PerThread, *Creations);
  return Facts;
}

const SyncInLoopCheck::LoopFacts &
SyncInLoopCheck::loopFacts(const Stmt *Loop, bool PerThread,
                           const ASTContext &Ctx) {
  auto [It, New] = Loops.try_emplace(Loop);
  if (New) {
    It->second.CanOverlap = iterationsCanOverlap(Loop, PerThread, Ctx);
    LoopControl Control;
    Control.collect(Loop);
    It->second.ControlVars = std::move(Control.Vars);
  }
  return It->second;
}

void SyncInLoopCheck::runOnCall(const CallExpr *Call,
                                const FunctionDecl *Function,
                                const MatchFinder::MatchResult &R) {
  if (Function->isDependentContext() || !Function->getBody() ||
      isDeviceOnly(Function) || lookupApi(Call))
    return;
  const Stmt *Loop = enclosingLoop(Call, Function, Parents, *R.Context);
  if (!Loop)
    return;
  if (!Syncs)
    Syncs = SyncSummaries::forTranslationUnit(*R.Context);
  std::optional<CallWait> Wait = callWaitsForItsWork(Call, *Syncs);
  // Each iteration's call works on another stream, and waits for it.
  if (!Wait || !usesLoopCounter(Wait->Chooser, Loop) ||
      leavesTheLoop(Call, Loop, Function, Parents, *R.Context))
    return;
  // A loop that goes on by what the call gives back ('converged =
  // solver.step()' read by the loop's condition) needs it each time.
  const LoopFacts &Shape =
      loopFacts(Loop, usesPerThreadDefaultStream(Function), *R.Context);
  for (const Stmt *S = Parents.parent(Function, Call); S && S != Loop;
       S = Parents.parent(Function, S)) {
    const VarDecl *Assigned = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->isAssignmentOp())
      Assigned = declRefVar(BO->getLHS());
    else if (const auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
      Assigned = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (Assigned && Shape.ControlVars.count(Assigned))
      return;
  }
  const ApiSpec *Api = lookupApi(Wait->Wait);
  const FunctionDecl *Callee = Call->getDirectCallee();
  Finding F;
  F.Function = Function;
  F.Loc = Call->getBeginLoc();
  F.Message = "'" + Callee->getNameAsString() + "' waits for the work it " +
              "issues ('" + Api->Name.str() +
              "') in every iteration of the loop, so the iterations cannot "
              "overlap; move the wait after the loop, or wait for the "
              "previous iteration's work (double buffering)";
  F.Notes.push_back({Wait->Wait->getBeginLoc(), "it waits here"});
  F.Notes.push_back(
      {Wait->Work->getBeginLoc(), "for this asynchronous operation"});
  report(std::move(F), *R.Context);
}

void SyncInLoopCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("call")) {
    runOnCall(Call, Function, R);
    return;
  }
  const auto *Sync = R.Nodes.getNodeAs<CallExpr>("sync");
  if (Function->isDependentContext() || !Function->getBody() ||
      isDeviceOnly(Function) || !isHostSynchronization(Sync, *R.Context))
    return;
  const Stmt *Loop = enclosingLoop(Sync, Function, Parents, *R.Context);
  if (!Loop)
    return;
  const FunctionFacts &Facts = Cache.get(Function, [&](const FunctionDecl *FD) {
    return factsOf(FD, *R.Context);
  });
  auto Waits = Facts.Waits.find(Sync);
  if (Waits == Facts.Waits.end())
    return;
  const SourceManager &SM = *R.SourceManager;
  // This iteration's work: issued in the loop's body. A wait in an inner
  // loop that waits for no work of its own loop may wait for the work an
  // enclosing loop issued earlier in its iteration ('for (i) sync(s[i])'
  // after two launches in the batch loop): that loop is the one it
  // serializes. (Work an inner loop issued is done with when its loop
  // exits: a wait after it is an epoch-level barrier, not reported.)
  std::vector<const AsyncOperation *> Waited;
  for (; Loop; Loop = enclosingLoop(Loop, Function, Parents, *R.Context)) {
    for (const WaitedOperation &W : Waits->second)
      if (isWrittenWithin(W.Op.Call, loopBody(Loop), SM) &&
          W.currentIn(Loop, SM) && !waitsForOtherWork(Sync, W, *R.Context))
        Waited.push_back(&W.Op);
    if (!Waited.empty())
      break;
  }
  if (Waited.empty())
    return;
  // A wait in the last pass of its loop and of every loop around it holds
  // back no later iteration (HybridSort's wait for the last batch, under
  // 's == 1 && i == (number_of_batches / 2) - 1').
  if (!LastPasses)
    LastPasses.emplace(*R.Context);
  bool InLastPass = true;
  for (const Stmt *L = Loop; L && InLastPass;
       L = enclosingLoop(L, Function, Parents, *R.Context))
    InLastPass =
        LastPasses->runsOnlyInLastIteration(Sync, L, Function, Parents);
  if (InLastPass)
    return;
  const LoopFacts &Shape = loopFacts(Loop, Facts.PerThread, *R.Context);
  if (!Shape.CanOverlap ||
      leavesTheLoop(Sync, Loop, Function, Parents, *R.Context))
    return;
  // A loop that waits for a result it needs before it goes on (a
  // convergence test, a halo handed to MPI) must wait in every iteration.
  if (iterationNeedsResult(Sync, Waited, Loop, Shape.ControlVars, *R.Context))
    return;
  // A wait between work on two streams that share a buffer is their join:
  // without it they race, and an event in its place would keep the order.
  if (holdsBackNoOverlap(Sync, Waited, Loop, *R.Context))
    return;

  const ApiSpec *Api = lookupApi(Sync);
  Finding F;
  F.Function = Function;
  F.Loc = Sync->getBeginLoc();
  F.Message = "'" + Api->Name.str() +
              "' inside the loop waits for work issued earlier in the same "
              "iteration, so the iterations cannot overlap; move the wait "
              "after the loop, or wait for the previous iteration's work "
              "(double buffering)";
  F.Notes.push_back({Waited.front()->Call->getBeginLoc(),
                     "it waits for this asynchronous operation"});
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(SyncInLoopCheck)

} // namespace cuda_async_lint
