//===- IterationResults.cpp -----------------------------------------------===//

#include "IterationResults.h"
#include "IterationOverlap.h"
#include "analysis/code/BufferSwaps.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/dataflow/Loops.h"
#include "api/CudaApiCatalog.h"
#include "api/HostCommunication.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p Call returns a library's status code: a function of a system
/// header returning an enumeration ('cublasStatus_t', 'ncclResult_t').
bool returnsLibraryStatus(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->getReturnType()->isEnumeralType() &&
         Callee->getASTContext().getSourceManager().isInSystemHeader(
             Callee->getLocation());
}

/// Whether \p E reads any of \p Vars. What a CUDA, library or MPI call
/// returns is a status ('cudaError_t st = cudaMemcpyAsync(h, ...)',
/// 'cublasStatus_t st = cublasDgemm(...)'), not data derived from the
/// buffers it is given.
bool mentions(const Stmt *E, const std::set<const VarDecl *> &Vars) {
  if (!E)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && (lookupApi(Call) || lookupHostCommunication(Call) ||
               returnsLibraryStatus(Call)))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return Vars.count(VD) != 0;
  for (const Stmt *Child : E->children())
    if (mentions(Child, Vars))
      return true;
  return false;
}

/// The assignments, initializations and calls of a loop's body, for the
/// derivation below (lambdas, which run elsewhere, left out).
class BodyStatements : public RecursiveASTVisitor<BodyStatements> {
public:
  std::vector<const BinaryOperator *> Assignments;
  std::vector<const VarDecl *> Initialized;
  std::vector<const CallExpr *> Calls;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      Assignments.push_back(B);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit())
      Initialized.push_back(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    Calls.push_back(Call);
    return true;
  }
};

/// Adds to \p Derived every variable of \p Body whose value comes from one
/// already in it: 'v = f(d)', 'T v = d[0]', 'v += d', and 'g(d, &v)' (a
/// call given one of them and the address of another writes the second from
/// the first: MPI_Allreduce, memcpy). Statements \p Skip says no are left
/// out.
void deriveWithin(const BodyStatements &Body,
                  std::set<const VarDecl *> &Derived,
                  llvm::function_ref<bool(const Stmt *)> Skip) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    auto Add = [&](const VarDecl *VD) {
      if (VD && Derived.insert(VD).second)
        Changed = true;
    };
    for (const BinaryOperator *B : Body.Assignments)
      if (!Skip(B) && mentions(B->getRHS(), Derived))
        Add(baseVariable(B->getLHS()));
    for (const VarDecl *VD : Body.Initialized)
      if (!Skip(VD->getInit()) && mentions(VD->getInit(), Derived))
        Add(VD);
    for (const CallExpr *Call : Body.Calls) {
      if (Skip(Call))
        continue;
      if (!llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
            return mentions(Arg, Derived);
          }))
        continue;
      for (const Expr *Arg : Call->arguments())
        if (addressOfOperand(Arg))
          Add(baseVariable(Arg));
    }
  }
}

/// Whether \p S is written after \p From ends and before \p To.
bool isBetween(const Stmt *S, const Stmt *From, SourceLocation To,
               const SourceManager &SM) {
  if (!S)
    return false;
  SourceLocation At = SM.getExpansionLoc(S->getBeginLoc());
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(From->getEndLoc()),
                                      At) &&
         SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(To));
}
bool isBetween(const Stmt *S, const Stmt *From, const Stmt *To,
               const SourceManager &SM) {
  return isBetween(S, From, To->getBeginLoc(), SM);
}

/// The block of \p Body written around \p S (not one of a macro it is
/// written in, such as an error check's braces), if \p S is no branch's or
/// inner loop's: what follows \p S in it runs after it. (The body's own
/// parent map: the ASTContext's would cover the whole unit.)
const CompoundStmt *enclosingBlock(const Stmt *S, const Stmt *Body,
                                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(S->getBeginLoc());
  ParentMap Parents(const_cast<Stmt *>(Body));
  // Through declarations too: 'cudaError_t st = cudaStreamSynchronize(s);'.
  for (const Stmt *Child = S, *Parent = Parents.getParent(S); Parent;
       Child = Parent, Parent = Parents.getParent(Parent)) {
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent))
      if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Block->getLBracLoc()),
                                       At))
        return Block;
    // A branch's condition runs whichever way it goes ('if (cudaSuccess !=
    // cudaStreamSynchronize(s))'); under a branch or a loop of its own the
    // wait may not run, and what follows does not run after it.
    if (const auto *If = dyn_cast<IfStmt>(Parent); If && Child == If->getCond())
      continue;
    if (const auto *Switch = dyn_cast<SwitchStmt>(Parent);
        Switch && Child == Switch->getCond())
      continue;
    // 'do { ... } while (0)', an error macro's body, runs once.
    if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
      std::optional<int64_t> Once = integerConstant(Do->getCond(), Ctx);
      if (Once && *Once == 0)
        continue;
    }
    if (isa<IfStmt, SwitchStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt,
            AbstractConditionalOperator, LambdaExpr>(Parent))
      return nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(Parent); B && B->isLogicalOp())
      return nullptr;
  }
  return nullptr;
}

/// The last host wait of the iteration before \p Sync, run in every
/// iteration, that waits for the device-to-host copies among \p Waited as
/// surely as \p Sync does: a device sync, or a sync of the stream each of
/// them went to. Null if there is none.
const CallExpr *
earlierWaitForResults(const CallExpr *Sync,
                      llvm::ArrayRef<const AsyncOperation *> Waited,
                      const BodyStatements &Body, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::set<StreamRef> CopyStreams;
  for (const AsyncOperation *Op : Waited) {
    const ApiSpec *Api = Op->IsTransfer ? lookupApi(Op->Call) : nullptr;
    if (!Api || Api->Kind != ApiKind::Copy ||
        copyDirection(Op->Call, *Api, Ctx) != CopyDirection::DeviceToHost)
      continue;
    StreamRef S = streamRef(Op->Stream);
    if (S.K != StreamRef::Kind::Named)
      return nullptr;
    CopyStreams.insert(S);
  }
  if (CopyStreams.empty())
    return nullptr;
  const CallExpr *Last = nullptr;
  for (const CallExpr *Call : Body.Calls) {
    const ApiSpec *Api = lookupApi(Call);
    if (Call == Sync || !Api ||
        !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Call->getEndLoc()),
                                      SM.getExpansionLoc(Sync->getBeginLoc())))
      continue;
    bool Covers =
        Api->Kind == ApiKind::DeviceSync ||
        (Api->Kind == ApiKind::StreamSync && CopyStreams.size() == 1 &&
         streamRef(Api->arg(Call, ArgRole::Stream)) == *CopyStreams.begin());
    if (Covers && (!Last || SM.isBeforeInTranslationUnit(
                                SM.getExpansionLoc(Last->getBeginLoc()),
                                SM.getExpansionLoc(Call->getBeginLoc()))))
      Last = Call;
  }
  return Last;
}

/// Whether \p Call, made after \p Sync in the iteration, hands a buffer in
/// \p Produced to a host communication call.
bool communicatesAfter(const CallExpr *Call, const CallExpr *Sync,
                       const std::set<const VarDecl *> &Produced,
                       const SourceManager &SM) {
  const HostCommunicationSpec *Spec = lookupHostCommunication(Call);
  if (!Spec ||
      !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Sync->getEndLoc()),
                                    SM.getExpansionLoc(Call->getBeginLoc())))
    return false;
  for (ArgRole R : {ArgRole::Src, ArgRole::Dst})
    for (const Expr *Arg : hostCommunicationArgs(Call, *Spec, R))
      if (const VarDecl *VD = baseVariable(Arg); VD && Produced.count(VD))
        return true;
  return false;
}

/// Whether the iteration exchanges two buffers that the waited work both
/// takes ('step(u1, u2); ...; tmp = u1; u1 = u2; u2 = tmp;') on two streams
/// or more that nothing else joins: the next iteration's work reads what
/// this one's wrote, on another stream, and the wait is the join between
/// them, not a serialization. Buffers taken on one stream only, or on
/// streams the body's events already join across iterations, are ordered
/// without it.
bool carriesWorkBetweenIterations(llvm::ArrayRef<const AsyncOperation *> Waited,
                                  const Stmt *Loop, const ASTContext &Ctx) {
  // Each waited operation's pointer arguments, once.
  std::vector<std::set<const VarDecl *>> Args;
  std::set<const VarDecl *> Taken;
  for (const AsyncOperation *Op : Waited) {
    Args.push_back(pointerArguments(Op->Call));
    Taken.insert(Args.back().begin(), Args.back().end());
  }
  for (const SwappedPair &P : swappedVariables(loopBody(Loop))) {
    if (!Taken.count(P.first) || !Taken.count(P.second))
      continue;
    // The streams of the work that takes either buffer; one the analysis
    // cannot name may be any stream (precision first: the join stands).
    std::set<StreamRef> Streams;
    for (size_t I = 0; I < Waited.size(); ++I) {
      if (!Args[I].count(P.first) && !Args[I].count(P.second))
        continue;
      StreamRef S = streamRef(Waited[I]->Stream);
      if (S.K == StreamRef::Kind::Unknown)
        return true;
      Streams.insert(S);
    }
    if (Streams.size() > 1 && !eventsJoinStreams(Loop, Streams, Ctx))
      return true;
  }
  return false;
}

} // namespace

std::set<const VarDecl *>
producedVariables(const CallExpr *Sync,
                  llvm::ArrayRef<const AsyncOperation *> Waited,
                  const ASTContext &Ctx, bool HostSideOnly) {
  std::set<const VarDecl *> Produced;
  auto AddCopyDestination = [&](const CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::Copy ||
        copyDirection(Call, *Api, Ctx) != CopyDirection::DeviceToHost)
      return;
    if (const VarDecl *VD = baseVariable(Api->arg(Call, ArgRole::Dst)))
      Produced.insert(VD);
  };
  AddCopyDestination(Sync);
  for (const AsyncOperation *Op : Waited) {
    if (Op->IsTransfer) {
      AddCopyDestination(Op->Call);
      continue;
    }
    // A function given the stream (a library's call): any buffer it is
    // handed may be what it writes, host memory included. A kernel writes
    // device memory, which the host reads only through a copy (or hands to
    // a CUDA-aware communication call).
    if (!HostSideOnly || !isa<CUDAKernelCallExpr>(Op->Call))
      Produced.merge(pointerArguments(Op->Call));
  }
  return Produced;
}

/// Whether the iteration times its own work: after \p Sync it reads the
/// elapsed time between two events it recorded before the wait
/// ('record(start); work; record(stop); sync; elapsed(&t, start, stop)').
/// Overlapping the iterations would change what each one measures.
bool timesItsOwnWork(const CallExpr *Sync, const BodyStatements &Body,
                     const SourceManager &SM) {
  auto Before = [&SM](const Stmt *A, const Stmt *B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A->getEndLoc()),
                                        SM.getExpansionLoc(B->getBeginLoc()));
  };
  std::set<StreamRef> Recorded;
  for (const CallExpr *Call : Body.Calls)
    if (const ApiSpec *Api = lookupApi(Call);
        Api && Api->Kind == ApiKind::EventRecord && Before(Call, Sync))
      if (StreamRef Event = streamRef(Api->arg(Call, ArgRole::Event));
          Event.K != StreamRef::Kind::Unknown)
        Recorded.insert(Event);
  for (const CallExpr *Call : Body.Calls) {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::EventElapsedTime || !Before(Sync, Call))
      continue;
    unsigned Events = 0;
    for (const Expr *Arg : Call->arguments())
      if (isEventType(Arg->getType()) && Recorded.count(streamRef(Arg)))
        ++Events;
    if (Events == 2)
      return true;
  }
  return false;
}

bool iterationNeedsResult(const CallExpr *Sync,
                          llvm::ArrayRef<const AsyncOperation *> Waited,
                          const Stmt *Loop,
                          const std::set<const VarDecl *> &ControlVars,
                          const ASTContext &Ctx) {
  if (carriesWorkBetweenIterations(Waited, Loop, Ctx))
    return true;
  BodyStatements Body;
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  const SourceManager &SM = Ctx.getSourceManager();
  if (timesItsOwnWork(Sync, Body, SM))
    return true;
  std::set<const VarDecl *> Produced = producedVariables(Sync, Waited, Ctx);
  if (Produced.empty())
    return false;
  for (const CallExpr *Call : Body.Calls)
    if (communicatesAfter(Call, Sync, Produced, SM))
      return true;
  std::set<const VarDecl *> Derived =
      producedVariables(Sync, Waited, Ctx, /*HostSideOnly=*/true);
  // What the body reads after an earlier wait for the same results and
  // before this one ('cudaStreamSynchronize(compute); l2 += *l2_h; ...;
  // cudaDeviceSynchronize();') it has from that wait: it needs none of this
  // one's.
  const CallExpr *Earlier = earlierWaitForResults(Sync, Waited, Body, Ctx);
  const CompoundStmt *EarlierBlock =
      Earlier ? enclosingBlock(Earlier, loopBody(Loop), Ctx) : nullptr;
  auto CoveredByEarlier = [&](const Stmt *S) {
    return EarlierBlock && isBetween(S, Earlier, Sync, SM) &&
           isBetween(S, Earlier, EarlierBlock->getRBracLoc(), SM);
  };
  deriveWithin(Body, Derived, CoveredByEarlier);
  return llvm::any_of(ControlVars,
                      [&](const VarDecl *VD) { return Derived.count(VD); });
}

} // namespace cuda_async_lint
