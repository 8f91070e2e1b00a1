//===- IterationResults.cpp -----------------------------------------------===//

#include "IterationResults.h"
#include "analysis/code/BufferSwaps.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/dataflow/Loops.h"
#include "api/CudaApiCatalog.h"
#include "api/HostCommunication.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p E reads any of \p Vars.
bool mentions(const Stmt *E, const std::set<const VarDecl *> &Vars) {
  if (!E)
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
/// the first: MPI_Allreduce, memcpy).
void deriveWithin(const BodyStatements &Body,
                  std::set<const VarDecl *> &Derived) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    auto Add = [&](const VarDecl *VD) {
      if (VD && Derived.insert(VD).second)
        Changed = true;
    };
    for (const BinaryOperator *B : Body.Assignments)
      if (mentions(B->getRHS(), Derived))
        Add(baseVariable(B->getLHS()));
    for (const VarDecl *VD : Body.Initialized)
      if (mentions(VD->getInit(), Derived))
        Add(VD);
    for (const CallExpr *Call : Body.Calls) {
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
/// takes ('step(u1, u2); ...; tmp = u1; u1 = u2; u2 = tmp;'): the next
/// iteration's work reads what this one's wrote, on whichever stream, and
/// the wait is the join between them, not a serialization.
bool carriesWorkBetweenIterations(llvm::ArrayRef<const AsyncOperation *> Waited,
                                  const Stmt *Loop) {
  std::set<const VarDecl *> Taken;
  for (const AsyncOperation *Op : Waited)
    Taken.merge(pointerArguments(Op->Call));
  return llvm::any_of(swappedVariables(loopBody(Loop)),
                      [&](const SwappedPair &P) {
                        return Taken.count(P.first) && Taken.count(P.second);
                      });
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
  if (carriesWorkBetweenIterations(Waited, Loop))
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
  deriveWithin(Body, Derived);
  return llvm::any_of(ControlVars,
                      [&](const VarDecl *VD) { return Derived.count(VD); });
}

} // namespace cuda_async_lint
