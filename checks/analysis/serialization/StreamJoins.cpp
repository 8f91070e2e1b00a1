//===- StreamJoins.cpp ----------------------------------------------------===//

#include "StreamJoins.h"
#include "IterationOverlap.h"
#include "analysis/code/AccessPaths.h"
#include "analysis/code/KernelWrites.h"
#include "analysis/dataflow/Loops.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

enum class Access { Read, Write, MayWrite };

struct BufferUse {
  AccessPath Buffer;
  Access How;
};

/// The buffers \p Op takes and how: a copy's destination and source, a
/// memset's destination, a kernel's pointer arguments (as its body uses
/// them, or read only through a pointer to const). Launches through the driver
/// API or cudaLaunchKernel pass their arguments by an array of pointers: none
/// is seen.
std::vector<BufferUse> bufferUses(const AsyncOperation &Op,
                                  const ASTContext &Ctx) {
  std::vector<BufferUse> Uses;
  auto Add = [&](const Expr *Arg, Access How) {
    if (std::optional<AccessPath> P = Arg ? bufferPath(Arg, Ctx) : std::nullopt)
      Uses.push_back({std::move(*P), How});
  };
  if (Op.IsTransfer) {
    const ApiSpec *Api = lookupApi(Op.Call);
    Add(Api->arg(Op.Call, ArgRole::Dst), Access::Write);
    Add(Api->arg(Op.Call, ArgRole::Src), Access::Read);
    return Uses;
  }
  const auto *Launch = dyn_cast<CUDAKernelCallExpr>(Op.Call);
  const FunctionDecl *Kernel = Launch ? Launch->getDirectCallee() : nullptr;
  if (!Kernel)
    return Uses;
  for (unsigned I = 0; I < Launch->getNumArgs() && I < Kernel->getNumParams();
       ++I) {
    QualType T = Kernel->getParamDecl(I)->getType();
    if (!T->isPointerType())
      continue;
    // The kernel's body decides where the unit has it; without it, a
    // pointer to const is read and any other may be written.
    std::optional<PointeeUse> Use = pointeeUse(Kernel, I);
    if (Use == PointeeUse::None)
      continue;
    Access How = T->getPointeeType().isConstQualified() ? Access::Read
                                                        : Access::MayWrite;
    if (Use)
      How = *Use == PointeeUse::Write ? Access::Write : Access::Read;
    Add(Launch->getArg(I), How);
  }
  return Uses;
}

/// The async operations of a loop's body, lambdas left out.
class BodyOperations : public RecursiveASTVisitor<BodyOperations> {
public:
  std::vector<AsyncOperation> Ops;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (std::optional<AsyncOperation> Op = asyncOperation(Call))
      Ops.push_back(*Op);
    return true;
  }
};

/// Whether \p A and \p B run on two streams the wait must join: certainly
/// distinct, and not ordered by the body's events (two named streams; the
/// elements of one array are one stream to the event analysis, which
/// cannot tell what orders 'strm[0]' after 'strm[2]').
bool needJoining(const AsyncOperation &A, const AsyncOperation &B,
                 const Stmt *Loop, const ASTContext &Ctx) {
  const Expr *SA = writtenStream(A), *SB = writtenStream(B);
  if (!SA || !SB || !certainlyDistinct(SA, SB, Ctx))
    return false;
  StreamRef RA = streamRef(SA), RB = streamRef(SB);
  if (RA.K == StreamRef::Kind::Unknown || RB.K == StreamRef::Kind::Unknown ||
      RA.isDefault() || RB.isDefault())
    return false;
  return RA == RB || !eventsJoinStreams(Loop, {RA, RB}, Ctx);
}

} // namespace

bool joinsDependentStreams(const CallExpr *Sync,
                           llvm::ArrayRef<const AsyncOperation *> Waited,
                           const Stmt *Loop, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  BodyOperations Body;
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  if (Body.Ops.empty())
    return false;
  auto At = [&SM](const Stmt *S) {
    return SM.getExpansionLoc(S->getBeginLoc());
  };
  llvm::sort(Body.Ops, [&](const AsyncOperation &A, const AsyncOperation &B) {
    return SM.isBeforeInTranslationUnit(At(A.Call), At(B.Call));
  });
  // What the host issues first once the wait returns: the next operation
  // written in the iteration or, after its last, the next iteration's first.
  SourceLocation SyncEnd = SM.getExpansionLoc(Sync->getEndLoc());
  const AsyncOperation *Next = &Body.Ops.front();
  bool SameIteration = false;
  for (const AsyncOperation &Op : Body.Ops)
    if (SM.isBeforeInTranslationUnit(SyncEnd, At(Op.Call))) {
      Next = &Op;
      SameIteration = true;
      break;
    }
  std::vector<BufferUse> NextUses = bufferUses(*Next, Ctx);
  for (const AsyncOperation *W : Waited) {
    if (*W == *Next || !needJoining(*W, *Next, Loop, Ctx))
      continue;
    for (const BufferUse &Earlier : bufferUses(*W, Ctx))
      for (const BufferUse &Later : NextUses) {
        if (!(Later.Buffer == Earlier.Buffer))
          continue;
        // Within the step, any write orders the two. Into the next step,
        // only reading what the step wrote does: overwriting what it read
        // is the one-buffer case double buffering removes.
        if (SameIteration
                ? Later.How != Access::Read || Earlier.How != Access::Read
                : Earlier.How == Access::Write && Later.How != Access::Write)
          return true;
      }
  }
  return false;
}

} // namespace cuda_async_lint
