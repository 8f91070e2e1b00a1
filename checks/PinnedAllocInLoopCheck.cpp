//===- PinnedAllocInLoopCheck.cpp - cuda-async-pinned-alloc-in-loop -------===//

#include "PinnedAllocInLoopCheck.h"
#include "analysis/code/CopyIssuers.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/dataflow/Loops.h"
#include "analysis/pending/HostAccess.h"
#include "api/CudaApiCatalog.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <functional>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

PinnedAllocInLoopCheck::PinnedAllocInLoopCheck(DiagnosticSink &Sink)
    : Check("cuda-async-pinned-alloc-in-loop", Sink) {}
PinnedAllocInLoopCheck::~PinnedAllocInLoopCheck() = default;

void PinnedAllocInLoopCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(
      callExpr(anyOf(apiCall(ApiKind::Allocate), apiCall(ApiKind::Register)),
               inHostFunction(functionDecl().bind("function")))
          .bind("pin"),
      this);
}

/// What the loop does each iteration: the first release of each buffer,
/// the first async transfer. Does not look into lambdas. Collected once per
/// loop, whatever the number of pinning calls in it.
class PinnedAllocInLoopCheck::LoopWork : public RecursiveASTVisitor<LoopWork> {
public:
  LoopWork(const HostAccessFinder &Buffers, CopyIssuers &Issuers)
      : Buffers(Buffers), Issuers(Issuers) {}

  /// Per buffer, its first release (free, cudaFreeHost, unregister).
  llvm::DenseMap<const ValueDecl *, const Expr *> Releases;
  const CallExpr *Transfer = nullptr;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitExpr(Expr *E) {
    if (std::optional<ReleaseSite> Site = releaseSite(E))
      released(Site->Ptr, E);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const ApiSpec *Api = lookupApi(Call);
      // A helper of this unit that issues copies (itself or through its
      // own helpers) is the loop's transfer.
      if (!Api) {
        if (!Transfer && Issuers.issuesCopies(Call->getDirectCallee()))
          Transfer = Call;
        return true;
      }
      if (Api->Kind == ApiKind::Unregister)
        released(Api->arg(Call, ArgRole::Ptr), Call);
      if (Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async &&
          !Transfer)
        Transfer = Call;
    }
    return true;
  }

private:
  void released(const Expr *Ptr, const Expr *At) {
    if (std::optional<BufferRef> B = Buffers.bufferOf(Ptr))
      if (B->Base)
        Releases.try_emplace(B->Base, At);
  }
  const HostAccessFinder &Buffers;
  CopyIssuers &Issuers;
};

namespace {

/// The buffer a pinning call pins: the target of an allocator's '&p'
/// out-parameter, or the pointer a register call is given.
const ValueDecl *pinnedBuffer(const CallExpr *Call, const ApiSpec &Api,
                              const HostAccessFinder &Buffers) {
  if (Api.Kind == ApiKind::Register) {
    std::optional<BufferRef> B = Buffers.bufferOf(Api.arg(Call, ArgRole::Ptr));
    return B ? B->Base : nullptr;
  }
  const Expr *Out = Api.arg(Call, ArgRole::Out);
  const Expr *Target = Out ? addressOfOperand(Out) : nullptr;
  if (!Target)
    return nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Target))
    Target = ASE->getBase()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Target))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(Target))
    return ME->getMemberDecl();
  return nullptr;
}

/// The counters a for loop's init declares.
std::set<const VarDecl *> loopCounters(const Stmt *Loop) {
  std::set<const VarDecl *> Counters;
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit()))
      for (const Decl *D : Init->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          Counters.insert(VD);
  return Counters;
}

bool mentionsAny(const Stmt *S, const std::set<const VarDecl *> &Vars) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return Vars.count(dyn_cast<VarDecl>(DRE->getDecl())) != 0;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return mentionsAny(C, Vars); });
}

/// Whether the memory pinned is a slot of its own per iteration, kept
/// after it: the out-parameter or registered pointer is indexed by the
/// loop's counter ('l2_norm_h + dev', '&bufs[i]', '&plan[i].h'), a set-up
/// loop filling one buffer per device or stream.
bool pinsPerIterationSlot(const CallExpr *Call, const ApiSpec &Api,
                          const std::set<const VarDecl *> &Counters) {
  const Expr *Target = Api.arg(
      Call, Api.Kind == ApiKind::Register ? ArgRole::Ptr : ArgRole::Out);
  return Target && mentionsAny(Target, Counters);
}

/// cudaError_t, CUresult, hipError_t: what 'r != cudaSuccess' tests.
bool isErrorCodeType(QualType T) {
  const auto *Enum = T->getAs<EnumType>();
  if (!Enum)
    return false;
  llvm::StringRef Name = Enum->getDecl()->getName();
  return Name == "cudaError" || Name == "cudaError_enum" ||
         Name == "hipError_t";
}

/// Whether \p Loop goes round again only when a CUDA call failed: its
/// condition compares an error code with cudaSuccess, the result of a call
/// made there ('while (cudaMallocHost(&p, n) != cudaSuccess)') or of a
/// variable its body assigns ('err = cudaGetLastError();'). A retry loop
/// that shrinks the size until the allocation succeeds pins once.
bool retriesOnFailure(const Stmt *Loop) {
  const Expr *Cond = loopCondition(Loop);
  if (!Cond)
    return false;
  std::set<const VarDecl *> Assigned;
  std::function<void(const Stmt *)> CollectAssigned = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Assigned.insert(VD);
    for (const Stmt *C : S->children())
      CollectAssigned(C);
  };
  CollectAssigned(loopBody(Loop));
  std::function<bool(const Expr *)> TestsFailure = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp())
      return TestsFailure(BO->getLHS()) || TestsFailure(BO->getRHS());
    std::optional<ResultTest> Test = resultTest(E);
    // True when the result is not cudaSuccess.
    if (!Test || Test->Code != CudaErrorCode::Success || Test->TrueIfEqual)
      return false;
    const Expr *Result = Test->Result->IgnoreParenImpCasts();
    if (!isErrorCodeType(Result->getType()))
      return false;
    if (isa<CallExpr>(Result))
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(Result);
    return DRE && Assigned.count(dyn_cast<VarDecl>(DRE->getDecl()));
  };
  return TestsFailure(Cond);
}

/// Whether \p Call runs in one iteration of its loop only: under
/// 'if (i == K)' (or 'K == i') on the loop's counter.
bool runsInOneIteration(const CallExpr *Call, const Stmt *Loop,
                        const FunctionDecl *FD,
                        const std::set<const VarDecl *> &Counters,
                        BodyParents &Parents) {
  for (const Stmt *S = Parents.parent(FD, Call); S && S != Loop;
       S = Parents.parent(FD, S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    const auto *Cond =
        If ? dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts())
           : nullptr;
    if (!Cond || Cond->getOpcode() != BO_EQ)
      continue;
    auto IsCounter = [&](const Expr *E) {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && Counters.count(dyn_cast<VarDecl>(DRE->getDecl()));
    };
    auto IsConstant = [&](const Expr *E) {
      return integerConstant(E, FD->getASTContext()).has_value();
    };
    if ((IsCounter(Cond->getLHS()) && IsConstant(Cond->getRHS())) ||
        (IsConstant(Cond->getLHS()) && IsCounter(Cond->getRHS())))
      return true;
  }
  return false;
}

/// Whether \p S runs whenever the body of \p FD runs to its end: in no
/// branch of an if, switch or conditional operator, no loop's body, no
/// short-circuit operator's right-hand side, no handler (conditions run on
/// every path: 'if (cudaFreeHost(h) != cudaSuccess)'; so does a macro's
/// 'do { } while (0)').
bool runsOnEveryPath(const Stmt *S, const FunctionDecl *FD,
                     BodyParents &Parents) {
  for (const Stmt *P = Parents.parent(FD, S); P;
       S = P, P = Parents.parent(FD, P)) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (S != If->getCond() && S != If->getInit() &&
          S != If->getConditionVariableDeclStmt())
        return false;
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(P)) {
      if (S != Switch->getCond() && S != Switch->getInit() &&
          S != Switch->getConditionVariableDeclStmt())
        return false;
    } else if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(P)) {
      if (S != Cond->getCond())
        return false;
    } else if (const auto *For = dyn_cast<ForStmt>(P)) {
      if (S != For->getInit())
        return false;
    } else if (isa<SwitchCase, WhileStmt, CXXForRangeStmt, CXXTryStmt,
                   CXXCatchStmt>(P)) {
      return false;
    } else if (const auto *Do = dyn_cast<DoStmt>(P)) {
      if (isRepeatingLoop(Do, FD->getASTContext()))
        return false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && BO->getRHS() == S)
        return false;
    }
  }
  return true;
}

} // namespace

const PinnedAllocInLoopCheck::LoopWork &
PinnedAllocInLoopCheck::work(const Stmt *S,
                             const HostAccessFinder &FunctionBuffers) {
  std::unique_ptr<LoopWork> &Work = Loops[S];
  if (!Work) {
    Work = std::make_unique<LoopWork>(FunctionBuffers, Issuers);
    Work->TraverseStmt(const_cast<Stmt *>(S));
  }
  return *Work;
}

void PinnedAllocInLoopCheck::checkPinnedPerCall(
    const CallExpr *Call, const ApiSpec &Api, const FunctionDecl *Function,
    const ValueDecl *Pinned, const HostAccessFinder &FunctionBuffers,
    ASTContext &Ctx) {
  // Released on every path before the function returns, what it pinned
  // does not outlive the call, whoever's it is (a local's, a member's, the
  // pointer a register call was given). A lambda is called by whatever
  // holds it: not followed.
  if (!Pinned || !Function->getBody() || isLambdaCallOperator(Function))
    return;
  const Expr *Release =
      work(Function->getBody(), FunctionBuffers).Releases.lookup(Pinned);
  if (!Release || !runsOnEveryPath(Release, Function, Parents))
    return;
  // A call in one iteration only (under 'if (dev == 0)') pins once.
  const CallExpr *InLoop = nullptr;
  for (const LoopCalls::InLoop &Site : Callers.callsInLoops(Function, Ctx))
    if (!runsInOneIteration(Site.Call, Site.Loop, Site.Caller,
                            loopCounters(Site.Loop), Parents)) {
      InLoop = Site.Call;
      break;
    }
  if (!InLoop)
    return;
  bool Registers = Api.Kind == ApiKind::Register;
  std::string Name = Function->getNameAsString();
  Finding F;
  F.Function = Function;
  F.Loc = Call->getBeginLoc();
  F.Message =
      "'" + Api.Name.str() + "' " + (Registers ? "page-locks" : "allocates") +
      " pinned memory that '" + Name + "' " +
      (Registers ? "unregisters" : "releases") + " before it returns, and '" +
      Name +
      "' is called in every iteration of a loop; page-locking "
      "costs a system call per call and stalls the pipeline: " +
      (Registers ? "register the buffer once" : "allocate the buffer once") +
      " outside the loop and pass it in";
  F.Notes.push_back({Release->getBeginLoc(),
                     std::string(Registers ? "unregistered" : "released") +
                         " here, on every call"});
  F.Notes.push_back(
      {InLoop->getBeginLoc(), "'" + Name + "' is called here, in a loop"});
  report(std::move(F), Ctx);
}

void PinnedAllocInLoopCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Call = R.Nodes.getNodeAs<CallExpr>("pin");
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  const ApiSpec *Api = lookupApi(Call);
  if (!Api || Function->isDependentContext() ||
      (Api->Kind == ApiKind::Allocate && Api->Memory != MemoryKind::Pinned))
    return;
  const HostAccessFinder &FunctionBuffers =
      *Buffers.get(Function, [](const FunctionDecl *FD) {
        return std::make_unique<HostAccessFinder>(FD);
      });
  const ValueDecl *Pinned = pinnedBuffer(Call, *Api, FunctionBuffers);
  const Stmt *Loop = enclosingLoop(Call, Function, Parents, *R.Context);
  if (!Loop) {
    checkPinnedPerCall(Call, *Api, Function, Pinned, FunctionBuffers,
                       *R.Context);
    return;
  }
  if (retriesOnFailure(Loop))
    return;
  const LoopWork &Work = work(Loop, FunctionBuffers);
  const Expr *Release = Pinned ? Work.Releases.lookup(Pinned) : nullptr;
  const CallExpr *Transfer = Work.Transfer;
  // A set-up loop that pins a fixed set of buffers and does nothing else
  // with them is how pinned memory should be allocated; so is one that
  // pins one buffer per device or stream, or pins in its first iteration
  // only, whatever else it does.
  if (!Release && !Transfer)
    return;
  if (!Release) {
    std::set<const VarDecl *> Counters = loopCounters(Loop);
    if (pinsPerIterationSlot(Call, *Api, Counters) ||
        runsInOneIteration(Call, Loop, Function, Counters, Parents))
      return;
  }

  bool Registers = Api->Kind == ApiKind::Register;
  Finding F;
  F.Function = Function;
  F.Loc = Call->getBeginLoc();
  F.Message =
      ("'" + Api->Name + "' " + (Registers ? "page-locks" : "allocates") +
       " pinned memory in every iteration of a loop that " +
       (Release ? (Registers ? "unregisters" : "releases") +
                      std::string(" it again")
                : std::string("issues asynchronous transfers")) +
       "; page-locking costs a system call per iteration and stalls the "
       "pipeline: " +
       (Registers ? "register the buffer once" : "allocate the buffer once") +
       " before the loop and reuse it")
          .str();
  if (Release)
    F.Notes.push_back({Release->getBeginLoc(),
                       Registers ? "unregistered here, in the same iteration"
                                 : "released here, in the same iteration"});
  if (Transfer)
    F.Notes.push_back({Transfer->getBeginLoc(),
                       "the loop issues asynchronous transfers here"});
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(PinnedAllocInLoopCheck)

} // namespace cuda_async_lint
