//===- StreamJoins.cpp ----------------------------------------------------===//

#include "StreamJoins.h"
#include "IterationOverlap.h"
#include "IterationWork.h"
#include "analysis/code/AccessPaths.h"
#include "analysis/code/KernelWrites.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StmtWalk.h"
#include "analysis/dataflow/ExclusiveBranches.h"
#include "analysis/dataflow/Loops.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include <map>

using namespace clang;

namespace cuda_async_lint {

namespace {

enum class Access { Read, Write, MayWrite };

struct BufferUse {
  BufferPath Buffer;
  Access How;
  const Expr *Arg;
};

/// Whether \p T is a class that points somewhere: it (or a base)
/// dereferences ('operator*', 'operator->', 'operator[]'), as a
/// thrust::device_ptr or an iterator does; a functor or a value does not.
bool isIteratorLike(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  auto Dereferences = [](const CXXRecordDecl *R) {
    return llvm::any_of(R->methods(), [](const CXXMethodDecl *MD) {
      OverloadedOperatorKind Op = MD->getOverloadedOperator();
      return (Op == OO_Star && MD->getNumParams() == 0) || Op == OO_Arrow ||
             Op == OO_Subscript;
    });
  };
  if (Dereferences(RD))
    return true;
  bool Found = false;
  RD->forallBases([&](const CXXRecordDecl *Base) {
    Found |= Dereferences(Base);
    return !Found;
  });
  return Found;
}

/// The buffers \p Op takes and how: a copy's destination and source, a
/// memset's destination, a kernel's pointer arguments (as its body uses
/// them, or read only through a pointer to const), a library algorithm's
/// pointer arguments (any may be written). Launches through the driver
/// API or cudaLaunchKernel pass their arguments by an array of pointers: none
/// is seen; nor is a pointer no path names ('ws.d_query.data()'), as for a
/// copy. None (std::nullopt) where the operation may take any buffer: a
/// library call given an iterator or a device_ptr (a pointer the analysis
/// does not follow to what it wraps).
std::optional<std::vector<BufferUse>> bufferUses(const AsyncOperation &Op,
                                                 const ASTContext &Ctx,
                                                 RangingIndex Ranging) {
  std::vector<BufferUse> Uses;
  auto Add = [&](const Expr *Arg, Access How) {
    if (std::optional<BufferPath> P =
            Arg ? bufferPath(Arg, Ctx, Ranging) : std::nullopt)
      Uses.push_back({std::move(*P), How, Arg});
  };
  if (Op.IsTransfer) {
    const ApiSpec *Api = lookupApi(Op.Call);
    Add(Api->arg(Op.Call, ArgRole::Dst), Access::Write);
    Add(Api->arg(Op.Call, ArgRole::Src), Access::Read);
    return Uses;
  }
  if (libraryWorkStream(Op.Call, Ctx)) {
    for (unsigned I = 0; I < Op.Call->getNumArgs(); ++I) {
      const Expr *Arg = Op.Call->getArg(I)->IgnoreImplicit();
      QualType T = Arg->getType();
      if (I == 0 && T->isRecordType())
        continue; // The execution policy.
      if (T->isPointerType()) {
        Add(Arg, Access::MayWrite);
      } else if (isIteratorLike(T)) {
        return std::nullopt;
      }
    }
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

/// A call of a loop's body the walk looks at.
struct BodyCall {
  const CallExpr *Call;
  /// The work it issues; none for a host wait.
  std::optional<AsyncOperation> Op;
};

/// The async operations, host waits and loops of a loop's body, lambdas
/// left out.
class BodyOperations : public RecursiveASTVisitor<BodyOperations> {
public:
  explicit BodyOperations(const ASTContext &Ctx) : Ctx(Ctx) {}
  std::vector<BodyCall> Calls;
  std::vector<const Stmt *> Loops;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitStmt(Stmt *S) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      Loops.push_back(S);
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (std::optional<AsyncOperation> Op = asyncOperation(Call)) {
      Calls.push_back({Call, *Op});
      return true;
    }
    // A GPU library's work on the stream it is given: held back by a wait
    // before it as a kernel is. (One that synchronizes its stream is also
    // a wait, which holdsBackNoOverlap does not take it for: it only
    // counts as work the earlier wait held back.)
    if (const Expr *Stream = libraryWorkStream(Call, Ctx)) {
      Calls.push_back({Call, AsyncOperation{Call, false, Stream}});
      return true;
    }
    if (isHostSynchronization(Call, Ctx))
      Calls.push_back({Call, std::nullopt});
    return true;
  }

private:
  const ASTContext &Ctx;
};

/// The variables of a loop's body whose value changes from one iteration
/// to the next: assigned or initialized there from the loop's counter, or
/// from one of them ('int offset = i * streamSize;'). An inner loop's own
/// counter starts again each iteration and is not one.
class IterationVariables : public RecursiveASTVisitor<IterationVariables> {
public:
  explicit IterationVariables(const Stmt *Loop) : Loop(Loop) {
    TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const auto &[Var, Value] : Stores)
        if (!Changing.count(Var) && changes(Value, /*NextIteration=*/true))
          Grew |= Changing.insert(Var).second;
    }
  }

  /// Whether \p E names, in the next iteration (\p NextIteration),
  /// another object than in this one: 'stream[i]', 'd[offset]'.
  bool changes(const Expr *E, bool NextIteration) const {
    if (!NextIteration || !E)
      return false;
    return usesLoopCounter(E, Loop) || mentionsAnyOf(E, Changing);
  }

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      if (const VarDecl *VD = declRefVar(B->getLHS()))
        Stores.push_back({VD, B->getRHS()});
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit())
      Stores.push_back({VD, VD->getInit()});
    return true;
  }

private:
  const Stmt *Loop;
  std::vector<std::pair<const VarDecl *, const Expr *>> Stores;
  std::set<const VarDecl *> Changing;
};

/// Whether \p A and \p B run on one stream, certainly: the legacy or the
/// per-thread stream both, or one stream named by one path
/// ('stream[dev * 2]' twice) that is not the next iteration's.
bool sameStream(const AsyncOperation &A, const AsyncOperation &B,
                bool NextIteration, const IterationVariables &Vars,
                const ASTContext &Ctx) {
  const Expr *SA = writtenStream(A), *SB = writtenStream(B);
  StreamRef RA = streamRef(SA), RB = streamRef(SB);
  if (RA.isDefault() || RB.isDefault())
    return RA.K == RB.K;
  return SA && SB && certainlySame(SA, SB, Ctx) &&
         !Vars.changes(SA, NextIteration);
}

/// Whether the wait must order \p Later after the waited \p Earlier: they
/// run on streams that are not certainly one (the elements of one array
/// of streams chosen otherwise: 'stream[dev * n]' and
/// 'stream[dev * n + 1]'), not already ordered by the body's events (named
/// streams only: the event analysis counts an array as one stream), and
/// take memory that may be shared, one of them writing it; \p NextIteration:
/// \p Later reads what \p Earlier wrote (overwriting what it read is the
/// one-buffer case double buffering removes).
bool dependsOn(const AsyncOperation &Later,
               const std::optional<std::vector<BufferUse>> &LaterUses,
               const AsyncOperation &Earlier,
               const std::optional<std::vector<BufferUse>> &EarlierUses,
               bool NextIteration, const Stmt *Loop,
               const IterationVariables &Vars, const ASTContext &Ctx) {
  if (sameStream(Later, Earlier, NextIteration, Vars, Ctx))
    return false;
  StreamRef RL = streamRef(writtenStream(Later));
  StreamRef RE = streamRef(writtenStream(Earlier));
  if (RL.K == StreamRef::Kind::Named && RE.K == StreamRef::Kind::Named &&
      !(RL == RE) && eventsJoinStreams(Loop, {RL, RE}, Ctx))
    return false;
  // Precision first: an operation that may take any buffer may take one the
  // other writes.
  if (!LaterUses || !EarlierUses)
    return true;
  for (const BufferUse &E : *EarlierUses)
    for (const BufferUse &L : *LaterUses) {
      if (!mayOverlap(E.Buffer, L.Buffer) || Vars.changes(L.Arg, NextIteration))
        continue;
      if (NextIteration ? E.How == Access::Write && L.How != Access::Write
                        : E.How != Access::Read || L.How != Access::Read)
        return true;
    }
  return false;
}

/// Whether the host wait \p Call waits for all of \p Work: a device sync,
/// or a sync of the one stream all of it is on.
bool waitsForAll(const CallExpr *Call,
                 llvm::ArrayRef<const AsyncOperation *> Work,
                 bool NextIteration, const IterationVariables &Vars,
                 const ASTContext &Ctx) {
  const ApiSpec *Api = lookupApi(Call);
  if (!Api)
    return false;
  if (Api->Kind == ApiKind::DeviceSync)
    return true;
  const Expr *Stream = Api->Kind == ApiKind::StreamSync
                           ? Api->arg(Call, ArgRole::Stream)
                           : nullptr;
  return Stream && !Vars.changes(Stream, NextIteration) &&
         llvm::all_of(Work, [&](const AsyncOperation *W) {
           const Expr *S = writtenStream(*W);
           return S && certainlySame(S, Stream, Ctx);
         });
}

} // namespace

bool holdsBackNoOverlap(const CallExpr *Sync,
                        llvm::ArrayRef<const AsyncOperation *> Waited,
                        const Stmt *Loop, const ASTContext &Ctx) {
  if (Waited.empty())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  BodyOperations Body(Ctx);
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  IterationVariables Vars(Loop);
  auto At = [&SM](const Stmt *S) {
    return SM.getExpansionLoc(S->getBeginLoc());
  };
  llvm::sort(Body.Calls, [&](const BodyCall &A, const BodyCall &B) {
    return SM.isBeforeInTranslationUnit(At(A.Call), At(B.Call));
  });
  // The buffers each operation takes, found once. An index or offset that
  // uses the counter of a loop around the operation but not around the
  // wait has taken every value by then, or will have ('d_u[dev]' of the
  // loop over the devices that launched, and of the one that copies after
  // the wait): it may be any element.
  std::map<const CallExpr *, std::optional<std::vector<BufferUse>>> Uses;
  auto UsesOf = [&](const AsyncOperation &Op)
      -> const std::optional<std::vector<BufferUse>> & {
    auto [It, New] = Uses.try_emplace(Op.Call);
    if (New) {
      std::vector<const Stmt *> Finished;
      for (const Stmt *L : Body.Loops)
        if (isWrittenWithin(Op.Call, L, SM) && !isWrittenWithin(Sync, L, SM))
          Finished.push_back(L);
      It->second = bufferUses(Op, Ctx, [&](const Expr *Index) {
        return llvm::any_of(
            Finished, [&](const Stmt *L) { return usesLoopCounter(Index, L); });
      });
    }
    return It->second;
  };
  // What the host issues once the wait returns, in order: the rest of the
  // iteration, then the next iteration up to the wait.
  SourceLocation SyncEnd = SM.getExpansionLoc(Sync->getEndLoc());
  auto FirstAfter = llvm::find_if(Body.Calls, [&](const BodyCall &C) {
    return SM.isBeforeInTranslationUnit(SyncEnd, At(C.Call));
  });
  struct Issue {
    const CallExpr *Call;
    const AsyncOperation *Op; // Null for a host wait.
    bool NextIteration;
  };
  std::vector<Issue> Issued;
  auto IssueOf = [](const BodyCall &C, bool Next) {
    return Issue{C.Call, C.Op ? &*C.Op : nullptr, Next};
  };
  for (auto It = FirstAfter; It != Body.Calls.end(); ++It)
    Issued.push_back(IssueOf(*It, false));
  for (auto It = Body.Calls.begin(); It != FirstAfter; ++It)
    Issued.push_back(IssueOf(*It, true));
  // A stream sync waits for the work on its stream, whatever an earlier
  // wait is taken to have covered (the iteration analysis counts every
  // element of an array of streams as one: a sync of 'stream[k + 1]' covers
  // the copy on 'stream[k + 2]' before the sync of 'stream[k + 2]').
  std::vector<const AsyncOperation *> Joined(Waited.begin(), Waited.end());
  if (const ApiSpec *Api = lookupApi(Sync);
      Api && Api->Kind == ApiKind::StreamSync)
    if (const Expr *Stream = Api->arg(Sync, ArgRole::Stream))
      for (auto It = Body.Calls.begin(); It != FirstAfter; ++It)
        if (const std::optional<AsyncOperation> &Op = It->Op)
          if (const Expr *S = writtenStream(*Op);
              S && certainlySame(S, Stream, Ctx) &&
              !llvm::any_of(Joined,
                            [&](const AsyncOperation *J) { return *J == *Op; }))
            Joined.push_back(&*Op);
  // What the rest of this pass cannot run, the wait does not hold back
  // (the first iteration's loads and a later one's reloads).
  ExclusiveBranches Exclusive(loopBody(Loop), Ctx);
  for (const Issue &I : Issued) {
    if (!I.NextIteration && Exclusive.exclusive(Sync, I.Call))
      continue;
    // A later wait of the iteration (or the next one) for all this work, a
    // device sync or a sync of its one stream, waits for it anyway: what
    // this one holds back, that one would.
    if (!I.Op) {
      if (I.Call == Sync)
        break;
      if (waitsForAll(I.Call, Joined, I.NextIteration, Vars, Ctx))
        return true;
      continue;
    }
    const AsyncOperation &X = *I.Op;
    if (llvm::any_of(Joined, [&](const AsyncOperation *W) {
          return !(*W == X) && dependsOn(X, UsesOf(X), *W, UsesOf(*W),
                                         I.NextIteration, Loop, Vars, Ctx);
        }))
      return true;
    // Work on the stream of every waited operation runs after them anyway;
    // other work the wait held back could have run beside them.
    if (!llvm::all_of(Joined, [&](const AsyncOperation *W) {
          return sameStream(X, *W, I.NextIteration, Vars, Ctx);
        }))
      return false;
  }
  return false;
}

} // namespace cuda_async_lint
