//===- PendingTransfers.cpp - The pending-transfer dataflow ---------------===//

#include "PendingTransfers.h"
#include "../api/AsyncOperation.h"
#include "../api/CudaApiCatalog.h"
#include "BranchFacts.h"
#include "ForwardDataflow.h"
#include "MemberEffects.h"
#include "NonBlockingStreams.h"
#include "StdLibrary.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

template <typename Set, typename Pred> void eraseIf(Set &S, Pred P) {
  for (auto It = S.begin(); It != S.end();)
    It = P(*It) ? S.erase(It) : std::next(It);
}

const VarDecl *declRefVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The member of the function's own object \p E names: 'stream' or
/// 'this->stream' in a member function.
const FieldDecl *thisMember(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

/// The object a member function is called on, as BufferRef::Object names
/// it: a variable ('p.f()', 'p->f()'), or \p Caller for its own 'this'.
const Decl *calledObject(const CXXMemberCallExpr *Call,
                         const FunctionDecl *Caller) {
  const Expr *Object = Call->getImplicitObjectArgument();
  if (!Object)
    return nullptr;
  Object = Object->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Object))
    return Caller;
  return declRefVar(Object);
}

/// The member function a call runs: null where a virtual call may run an
/// override.
const CXXMethodDecl *calledMethod(const CXXMemberCallExpr *Call) {
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!MD || !MD->isVirtual())
    return MD;
  return MD->getDevirtualizedMethod(Call->getImplicitObjectArgument(),
                                    /*IsAppleKext=*/false);
}

/// An object the call is given (by pointer, by reference, or as 'this'):
/// the callee may synchronize what the object's transfers run on.
const Decl *objectArgument(const Expr *Arg, const FunctionDecl *Caller) {
  Arg = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Arg))
    if (UO->getOpcode() == UO_AddrOf)
      Arg = UO->getSubExpr()->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(Arg))
    return Caller;
  const VarDecl *VD = declRefVar(Arg);
  if (!VD)
    return nullptr;
  QualType T = VD->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->isRecordType() ? VD : nullptr;
}

/// Facts under one assumption about the loop counters.
struct Disjunct {
  /// Counters known to have been incremented since they were set to 0.
  std::set<const VarDecl *> Advanced;
  std::set<PendingTransfer> Pending;
  /// Per event recorded on every path: the transfers it covers. An event
  /// not in the map was recorded somewhere unknown.
  std::map<StreamRef, std::set<PendingTransfer>> EventCovers;
  /// What the path's branch conditions say (BranchFacts.h).
  BranchFactSet Facts;

  bool operator==(const Disjunct &O) const {
    return Advanced == O.Advanced && Pending == O.Pending &&
           EventCovers == O.EventCovers && Facts == O.Facts;
  }
  /// Disjuncts with the same assumptions merge.
  bool sameAssumptions(const Disjunct &O) const {
    return Advanced == O.Advanced && Facts == O.Facts;
  }
};

struct PendingState {
  std::vector<Disjunct> Disjuncts;
  bool operator==(const PendingState &O) const {
    return Disjuncts == O.Disjuncts;
  }
};

/// More disjuncts than this merge, bounding the state.
constexpr size_t MaxDisjuncts = 8;

void mergeInto(Disjunct &Into, const Disjunct &From) {
  Into.Pending.insert(From.Pending.begin(), From.Pending.end());
  intersectSetMaps(Into.EventCovers, From.EventCovers);
}

/// Joins \p From into \p Into and brings \p Into to its canonical form:
/// one disjunct per set of counter facts, sorted, at most MaxDisjuncts.
void joinStates(PendingState &Into, const PendingState &From) {
  std::vector<Disjunct> All = std::move(Into.Disjuncts);
  All.insert(All.end(), From.Disjuncts.begin(), From.Disjuncts.end());
  Into.Disjuncts.clear();
  for (Disjunct &D : All) {
    auto Same = llvm::find_if(Into.Disjuncts, [&](const Disjunct &Mine) {
      return Mine.sameAssumptions(D);
    });
    if (Same != Into.Disjuncts.end())
      mergeInto(*Same, D);
    else
      Into.Disjuncts.push_back(std::move(D));
  }
  // Paths in the same state that differ only in what their branches said
  // are one path: what they all said is kept (a later branch learns the
  // rest again). This keeps functions with many independent conditions
  // within MaxDisjuncts.
  for (size_t I = 0; I < Into.Disjuncts.size(); ++I)
    for (size_t J = I + 1; J < Into.Disjuncts.size();) {
      Disjunct &A = Into.Disjuncts[I], &B = Into.Disjuncts[J];
      if (A.Advanced == B.Advanced && A.Pending == B.Pending &&
          A.EventCovers == B.EventCovers) {
        BranchFacts::intersect(A.Facts, B.Facts);
        Into.Disjuncts.erase(Into.Disjuncts.begin() + J);
      } else {
        ++J;
      }
    }
  // Too many: forget the counter and branch facts (every branch on them is
  // then feasible, which only costs precision).
  if (Into.Disjuncts.size() > MaxDisjuncts) {
    Disjunct All = Into.Disjuncts.front();
    for (size_t I = 1; I < Into.Disjuncts.size(); ++I) {
      mergeInto(All, Into.Disjuncts[I]);
      BranchFacts::intersect(All.Facts, Into.Disjuncts[I].Facts);
    }
    All.Advanced.clear();
    Into.Disjuncts = {std::move(All)};
  }
  llvm::sort(Into.Disjuncts, [](const Disjunct &A, const Disjunct &B) {
    return std::tie(A.Advanced, A.Facts) < std::tie(B.Advanced, B.Facts);
  });
}

/// What a condition on a loop counter (0 at the start, only incremented)
/// says on each disjunct.
enum class CounterTest {
  /// 'i > 0', 'i != 0', 'i >= 1', 'i': true exactly once incremented.
  TrueIffAdvanced,
  /// 'i == 0', '!i', 'i < 1', 'i <= 0': false exactly once incremented.
  FalseIffAdvanced,
  /// 'i < K', 'i != K', 'i <= K' for a constant K > 0: true at the start
  /// (a loop with a constant bound runs at least once), either way after.
  TrueAtStart,
};

/// The loop counter \p Cond tests, and how.
std::optional<std::pair<const VarDecl *, CounterTest>>
counterCondition(const Expr *Cond, const ASTContext &Ctx) {
  Cond = Cond->IgnoreParenImpCasts();
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot) {
    if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Cond)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    BinaryOperatorKind Op = BO->getOpcode();
    if (!BO->isComparisonOp())
      return std::nullopt;
    if (declRefVar(R) && !declRefVar(L)) { // 0 < i is i > 0.
      std::swap(L, R);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    const VarDecl *VD = declRefVar(L);
    std::optional<int64_t> K = Constant(R);
    if (!VD || !K)
      return std::nullopt;
    if (((Op == BO_GT || Op == BO_NE) && *K == 0) || (Op == BO_GE && *K == 1))
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
    if (((Op == BO_EQ || Op == BO_LE) && *K == 0) || (Op == BO_LT && *K == 1))
      return std::make_pair(VD, CounterTest::FalseIffAdvanced);
    if (((Op == BO_LT || Op == BO_NE) && *K > 0) || (Op == BO_LE && *K >= 0))
      return std::make_pair(VD, CounterTest::TrueAtStart);
    return std::nullopt;
  }
  if (const VarDecl *VD = declRefVar(Cond)) // if (i)
    if (VD->getType()->isIntegerType())
      return std::make_pair(VD, CounterTest::TrueIffAdvanced);
  return std::nullopt;
}

/// Loop counters: local integers set to 0 and otherwise only incremented,
/// so that 'i > 0' holds exactly once they were incremented, and that some
/// condition tests that way.
class CounterFinder : public RecursiveASTVisitor<CounterFinder> {
public:
  std::set<const VarDecl *> Counters;
  explicit CounterFinder(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitIfStmt(IfStmt *S) { return tested(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return tested(S->getCond()); }
  bool VisitWhileStmt(WhileStmt *S) { return tested(S->getCond()); }
  bool VisitConditionalOperator(ConditionalOperator *CO) {
    return tested(CO->getCond());
  }

  bool VisitVarDecl(VarDecl *VD) {
    // 'int i;' before 'for (i = 0; ...)': reading it before the assignment
    // would be undefined, so it is taken as starting at 0 too.
    if (VD->hasLocalStorage() && VD->getType()->isIntegerType() &&
        !isa<ParmVarDecl>(VD) && (!VD->getInit() || isZero(VD->getInit())))
      Candidates.insert(VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (const VarDecl *VD = declRefVar(BO->getLHS())) {
      if (BO->getOpcode() == BO_Assign && !isZero(BO->getRHS()))
        Other.insert(VD);
      else if (BO->isCompoundAssignmentOp() &&
               (BO->getOpcode() != BO_AddAssign || !isPositive(BO->getRHS())))
        Other.insert(VD);
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (const VarDecl *VD = declRefVar(UO->getSubExpr()))
      if (UO->isDecrementOp() || UO->getOpcode() == UO_AddrOf)
        Other.insert(VD);
    return true;
  }
  void finish() {
    for (const VarDecl *VD : Candidates)
      if (!Other.count(VD) && Tested.count(VD))
        Counters.insert(VD);
  }

private:
  static bool isZero(const Expr *E) {
    const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    return Int && Int->getValue() == 0;
  }
  static bool isPositive(const Expr *E) {
    const auto *Int = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
    return Int && Int->getValue().getZExtValue() > 0;
  }
  bool tested(const Expr *Cond) {
    if (!Cond)
      return true;
    if (auto Counter = counterCondition(Cond, Ctx))
      Tested.insert(Counter->first);
    // 'i < n': a loop bound, for BranchFacts.
    if (const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()))
      if (BO->getOpcode() == BO_LT || BO->getOpcode() == BO_NE)
        if (const VarDecl *VD = declRefVar(BO->getLHS()))
          Tested.insert(VD);
    return true;
  }

  const ASTContext &Ctx;
  std::set<const VarDecl *> Candidates, Other, Tested;
};

class TransferDataflow {
public:
  using State = PendingState;

  /// \p Seed: transfers in flight at the entry (a member function's
  /// stand-ins for its callers' transfers).
  TransferDataflow(const FunctionDecl *FD, ASTContext &Ctx,
                   ProvenanceAnalysis &Provenance, SyncSummaries &Syncs,
                   const HostAccessFinder &Accesses,
                   std::set<PendingTransfer> Seed = {})
      : Function(FD), Ctx(Ctx), Provenances(Provenance),
        Provenance(Provenance.function(FD)), Syncs(Syncs), Accesses(Accesses),
        Seed(std::move(Seed)), Branches(FD, Ctx),
        PerThread(usesPerThreadDefaultStream(FD)) {
    CounterFinder Counters(Ctx);
    Counters.TraverseDecl(const_cast<FunctionDecl *>(FD));
    Counters.finish();
    LoopCounters = std::move(Counters.Counters);
    NonBlocking = nonBlockingStreams(FD, Ctx);
  }

  State entryState() const {
    Disjunct Entry;
    Entry.Pending = Seed;
    return State{{std::move(Entry)}};
  }
  void join(State &Into, const State &From) const { joinStates(Into, From); }

  void transfer(const CFGElement &E, State &S) const {
    for (Disjunct &D : S.Disjuncts)
      transfer(E, D, nullptr);
    normalizeAfter(E, S);
  }

  /// The reporting pass: the same transfer, recording hazards.
  void replay(const CFGElement &E, State &S,
              std::vector<TransferHazard> &Hazards) const {
    for (Disjunct &D : S.Disjuncts)
      transfer(E, D, &Hazards);
    normalizeAfter(E, S);
  }

  bool transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    // What the block's last elements made equal merges before the edge
    // tests the disjuncts' facts.
    joinStates(S, State());
    if (const auto *Switch =
            dyn_cast_or_null<SwitchStmt>(From.getTerminatorStmt())) {
      const CFGBlock::AdjacentBlock &Edge = From.succ_begin()[SuccIndex];
      const CFGBlock *Succ = Edge.getReachableBlock()
                                 ? Edge.getReachableBlock()
                                 : Edge.getPossiblyUnreachableBlock();
      const Stmt *Label = Succ ? Succ->getLabel() : nullptr;
      llvm::erase_if(S.Disjuncts, [&](Disjunct &D) {
        return !Branches.takeSwitchEdge(Switch, Label, D.Facts);
      });
      return true;
    }
    const Expr *Cond = branchCondition(From);
    if (!Cond)
      return true;
    counterEdge(Cond, SuccIndex, S);
    pollingEdge(Cond, SuccIndex, S);
    llvm::erase_if(S.Disjuncts, [&](Disjunct &D) {
      return !Branches.takeEdge(
          Cond, SuccIndex == 0, D.Facts, [&](const VarDecl *VD) {
            return LoopCounters.count(VD) && !D.Advanced.count(VD);
          });
    });
    return true;
  }

private:
  /// Brings \p S to its canonical form where \p E may have changed what
  /// the disjuncts assume (an increment of a counter, a variable written or
  /// gone out of scope) and so made two of them one; other elements change
  /// only what is pending, and the next edge or join merges those. Doing it
  /// after every element made long blocks cost the square of their
  /// disjuncts' comparisons per element.
  static void normalizeAfter(const CFGElement &E, State &S) {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    if (E.getAs<CFGLifetimeEnds>() ||
        (CS && HostAccessFinder::writtenVariable(CS->getStmt())))
      joinStates(S, State());
  }

  /// The stream (or event) \p E names, through local copies of it:
  /// 'cudaStream_t s2 = s' is s.
  StreamRef stream(const Expr *E) const {
    StreamRef S = streamRef(E);
    for (int Depth = 0; Depth < 8 && S.K == StreamRef::Kind::Named; ++Depth) {
      const auto *VD = dyn_cast<VarDecl>(S.Decl);
      const Expr *Init = VD ? Accesses.aliasOf(VD) : nullptr;
      if (!Init)
        break;
      S = streamRef(Init);
    }
    return S;
  }

  /// 'i > 0' and friends, for a loop counter i: true exactly where i was
  /// incremented.
  void counterEdge(const Expr *Cond, unsigned SuccIndex, State &S) const {
    auto Counter = counterCondition(Cond, Ctx);
    if (!Counter || !LoopCounters.count(Counter->first))
      return;
    bool TrueEdge = SuccIndex == 0;
    llvm::erase_if(S.Disjuncts, [&](const Disjunct &D) {
      bool Advanced = D.Advanced.count(Counter->first);
      switch (Counter->second) {
      case CounterTest::TrueIffAdvanced:
        return Advanced != TrueEdge;
      case CounterTest::FalseIffAdvanced:
        return Advanced == TrueEdge;
      case CounterTest::TrueAtStart:
        return !Advanced && !TrueEdge;
      }
      return false;
    });
  }

  /// 'while (cudaStreamQuery(s) == cudaErrorNotReady)': leaving the loop
  /// means the stream is done; likewise cudaEventQuery for an event.
  void pollingEdge(const Expr *Cond, unsigned SuccIndex, State &S) const {
    const Expr *Query = Cond;
    unsigned DoneEdge = 1; // 'if (cudaStreamQuery(s))': nonzero, not done.
    if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
        UO && UO->getOpcode() == UO_LNot) {
      Query = UO->getSubExpr();
      DoneEdge = 0;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
               BO && BO->isEqualityOp()) {
      Query = BO->getLHS();
      std::optional<CudaErrorCode> Code = cudaErrorCode(BO->getRHS());
      if (!Code) {
        Query = BO->getRHS();
        Code = cudaErrorCode(BO->getLHS());
      }
      if (!Code)
        return;
      bool Equal = BO->getOpcode() == BO_EQ;
      bool DoneOnTrue = (*Code == CudaErrorCode::Success) == Equal;
      DoneEdge = DoneOnTrue ? 0 : 1;
    }
    const auto *Call = dyn_cast<CallExpr>(Query->IgnoreParenImpCasts());
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || SuccIndex != DoneEdge)
      return;
    for (Disjunct &D : S.Disjuncts) {
      if (Api->Kind == ApiKind::StreamQuery)
        syncStream(D, stream(Api->arg(Call, ArgRole::Stream)));
      else if (Api->Kind == ApiKind::EventQuery)
        syncEvent(D, stream(Api->arg(Call, ArgRole::Event)));
    }
  }

  /// True if work on \p S (a sync of it, or an event recorded on it) waits
  /// for \p P: the same stream, or one that may be it.
  bool waitsFor(const StreamRef &S, const PendingTransfer &P) const {
    using K = StreamRef::Kind;
    const StreamRef &T = P.Stream;
    if (S.K == K::Unknown || T.K == K::Unknown)
      return true;
    if (S.K == K::Legacy && PerThread) // 0 is the per-thread stream.
      return T.K == K::Legacy || T.K == K::PerThread;
    // The legacy default stream waits for every blocking stream.
    if (S.K == K::Legacy)
      return !NonBlocking.count(T.Decl) || T.K == K::Legacy;
    return T == S;
  }

  /// A sync covering \p S: of the stream itself, or one that may be it.
  void syncStream(Disjunct &D, const StreamRef &S) const {
    eraseIf(D.Pending,
            [&](const PendingTransfer &P) { return waitsFor(S, P); });
  }

  void syncAll(Disjunct &D) const { D.Pending.clear(); }

  /// Blocking copies and memsets wait for the legacy default stream, and so
  /// for every stream not created with cudaStreamNonBlocking.
  void syncBlocking(Disjunct &D) const {
    eraseIf(D.Pending, [&](const PendingTransfer &P) {
      return !P.Stream.Decl || !NonBlocking.count(P.Stream.Decl);
    });
  }

  void syncEvent(Disjunct &D, const StreamRef &Event) const {
    auto It = D.EventCovers.find(Event);
    if (Event.K == StreamRef::Kind::Unknown || It == D.EventCovers.end()) {
      syncAll(D); // Recorded where the analysis cannot see: anything.
      return;
    }
    for (const PendingTransfer &P : It->second)
      D.Pending.erase(P);
  }

  void transfer(const CFGElement &E, Disjunct &D,
                std::vector<TransferHazard> *Hazards) const {
    // A counter's facts end with its scope.
    if (std::optional<CFGLifetimeEnds> End = E.getAs<CFGLifetimeEnds>()) {
      D.Advanced.erase(End->getVarDecl());
      BranchFacts::written(End->getVarDecl(), D.Facts);
    }
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    const Stmt *St = CS ? CS->getStmt() : nullptr;
    const auto *Call = dyn_cast_or_null<CallExpr>(St);

    // A member function of the translation unit called on a named object:
    // what it touches first, then what it synchronizes and leaves in
    // flight on the object's buffer members (MemberEffects.h).
    const MemberEffects *Effects = nullptr;
    const Decl *Object = nullptr;
    if (const auto *MemberCall = dyn_cast_or_null<CXXMemberCallExpr>(St))
      Effects = memberCall(MemberCall, D, Hazards, Object);
    if (Call)
      forgetObjectsGiven(Call, D);

    // Synchronization first: a blocking copy waits, then touches the host.
    if (Call)
      synchronize(Call, D);

    llvm::SmallVector<HostAccess, 4> Found;
    Accesses.accessesOf(E, Found);
    for (const HostAccess &A : Found)
      access(A, D, Hazards);

    if (Call)
      issue(Call, D);
    if (Effects && Object)
      issueMemberTransfers(cast<CXXMemberCallExpr>(Call), *Effects, Object, D);

    // A pointer member pointed elsewhere names another buffer now.
    if (St) {
      llvm::SmallVector<BufferRef, 2> Reassigned;
      Accesses.reassignedMembers(St, Reassigned);
      for (const BufferRef &B : Reassigned)
        forgetMember(D, B.Base, B.Object);
    }

    if (St)
      BranchFacts::writtenByApiCall(St, D.Facts);
    if (St)
      if (const VarDecl *Written = HostAccessFinder::writtenVariable(St)) {
        BranchFacts::written(Written, D.Facts);
        // The buffers derived from it are other buffers now. A slice it
        // indexed is an earlier slice: still in flight, and still part of
        // the whole buffer (read after the issuing loop, before the wait).
        std::vector<PendingTransfer> Moved;
        eraseIf(D.Pending, [&](const PendingTransfer &P) {
          if (P.Buffer.Base == Written || P.Buffer.Object == Written)
            return true;
          if (!P.Buffer.Deps.count(Written))
            return false;
          Moved.push_back(P);
          // Its other variables ('n' in 'h + i * n') no longer say which.
          Moved.back().Buffer.Deps.clear();
          Moved.back().Buffer.Stale.insert(Written);
          return true;
        });
        D.Pending.insert(Moved.begin(), Moved.end());
        if (LoopCounters.count(Written)) {
          if (isa<DeclStmt>(St))
            D.Advanced.erase(Written);
          else if (!isa<BinaryOperator>(St) ||
                   cast<BinaryOperator>(St)->isCompoundAssignmentOp())
            D.Advanced.insert(Written);
          else
            D.Advanced.erase(Written); // i = 0
        }
      }
  }

  void synchronize(const CallExpr *Call, Disjunct &D) const {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api) {
      // Syncs only end transfers: with none in flight, what the callee
      // synchronizes cannot matter, and is not asked.
      if (D.Pending.empty())
        return;
      const FunctionDecl *FD = Call->getDirectCallee();
      if (!FD) {
        // Called through a pointer: it may synchronize the streams and
        // events it is given. Precision first: assume it does, as for a
        // function of another unit nothing is known of (callSyncs). A
        // helper given only the buffer is a host access (document 000's
        // refill race: prepareBatch(h_pinned, i)).
        for (const Expr *Arg : Call->arguments()) {
          if (isStreamType(Arg->getType()))
            syncStream(D, stream(Arg));
          else if (isEventType(Arg->getType()))
            syncEvent(D, stream(Arg));
        }
        return;
      }
      const SyncSummary *Summary = nullptr;
      CallSyncs Effect = Syncs.callSyncs(Call, FD, Summary);
      if (Effect.Device)
        syncAll(D);
      for (unsigned I : Effect.Streams)
        syncStream(D, stream(Call->getArg(I)));
      for (unsigned I : Effect.Events)
        syncEvent(D, stream(Call->getArg(I)));
      // Stream members are named by their declaration, whatever the object
      // (StreamRef): syncing one object's covers the others' too, which
      // only costs findings.
      if (Summary && isa<CXXMemberCallExpr>(Call)) {
        for (const FieldDecl *Member : Summary->StreamMembers)
          syncStream(D, {StreamRef::Kind::Named, Member});
        for (const FieldDecl *Member : Summary->EventMembers)
          syncEvent(D, {StreamRef::Kind::Named, Member});
      }
      return;
    }
    switch (Api->Kind) {
    case ApiKind::StreamSync:
      syncStream(D, stream(Api->arg(Call, ArgRole::Stream)));
      break;
    case ApiKind::DeviceSync:
      syncAll(D);
      break;
    case ApiKind::EventSync:
      syncEvent(D, stream(Api->arg(Call, ArgRole::Event)));
      break;
    case ApiKind::EventRecord: {
      StreamRef Event = stream(Api->arg(Call, ArgRole::Event));
      StreamRef Stream = stream(Api->arg(Call, ArgRole::Stream));
      if (Event.K == StreamRef::Kind::Unknown)
        break;
      // An event recorded on the legacy stream completes once every
      // blocking stream's earlier work has.
      std::set<PendingTransfer> Covered;
      for (const PendingTransfer &P : D.Pending)
        if (P.Stream == Stream ||
            (Stream.K == StreamRef::Kind::Legacy && waitsFor(Stream, P)))
          Covered.insert(P);
      D.EventCovers[Event] = std::move(Covered);
      break;
    }
    case ApiKind::Copy:
    case ApiKind::Memset:
      // "For transfers from device memory to device memory, no host-side
      // synchronization is performed."
      if (Api->Mode == ApiMode::Blocking &&
          copyDirection(Call, *Api, Ctx) != CopyDirection::DeviceToDevice)
        syncBlocking(D);
      break;
    case ApiKind::Release:
      // cudaFree and cudaFreeHost synchronize the device first.
      if (Api->Mode == ApiMode::Blocking)
        syncAll(D);
      break;
    default:
      break;
    }
  }

  void access(const HostAccess &A, Disjunct &D,
              std::vector<TransferHazard> *Hazards) const {
    for (auto It = D.Pending.begin(); It != D.Pending.end();) {
      const PendingTransfer &P = *It;
      bool SameBuffer =
          P.Buffer.Base == A.Buffer.Base &&
          P.Buffer.Object == A.Buffer.Object &&
          (A.Whole() ||
           (std::includes(A.Buffer.Deps.begin(), A.Buffer.Deps.end(),
                          P.Buffer.Deps.begin(), P.Buffer.Deps.end()) &&
            // 'h + i * n' now is not the slice of an earlier 'i'.
            llvm::none_of(P.Buffer.Stale, [&](const clang::VarDecl *V) {
              return A.Buffer.Deps.count(V);
            })));
      // Reading a buffer the device only reads is fine.
      bool Conflict =
          SameBuffer && (P.DeviceWrites || A.Kind != AccessKind::Read);
      if (!Conflict) {
        ++It;
        continue;
      }
      if (Hazards)
        Hazards->push_back({A, P});
      It = D.Pending.erase(It); // Reported once, at the first access.
    }
  }

  /// An async copy: its host side is now in flight on its stream, unless
  /// it is memory such a copy cannot be asynchronous with (pageable: that
  /// is cuda-async-pageable-copy's finding) or no host memory at all.
  void issue(const CallExpr *Call, Disjunct &D) const {
    const ApiSpec *Api = lookupApi(Call);
    if (!Api || Api->Kind != ApiKind::Copy || Api->Mode != ApiMode::Async)
      return;
    const Expr *StreamArg = Api->arg(Call, ArgRole::Stream);
    if (isa_and_nonnull<CXXDefaultArgExpr>(StreamArg))
      StreamArg = nullptr; // Omitted: the legacy default stream.
    StreamRef Stream = stream(StreamArg);
    for (const HostSide &Side : hostSides(Call, *Api, Ctx)) {
      HostProvenance P = Provenance.pointerAt(Call, Side.Arg);
      if (P.is(MemoryKind::Pageable) || P.is(MemoryKind::Device))
        continue;
      std::optional<BufferRef> Buffer = Accesses.bufferOf(Side.Arg);
      if (!Buffer || !Buffer->Base)
        continue;
      D.Pending.insert({Call, std::move(*Buffer), Stream, StreamArg,
                        Side.IsDestination, Side.Arg});
    }
  }

  /// A call of a member function: its first accesses to the object's
  /// buffer members, against the transfers in flight on them. Returns its
  /// effects (and sets \p Object) where they are known; a member function
  /// that is not known may synchronize anything of its object: its
  /// transfers, and those on stream members, are forgotten.
  const MemberEffects *memberCall(const CXXMemberCallExpr *Call, Disjunct &D,
                                  std::vector<TransferHazard> *Hazards,
                                  const Decl *&Object) const {
    Object = calledObject(Call, Function);
    const CXXMethodDecl *Method = Call->getMethodDecl();
    const SourceManager &SM = Ctx.getSourceManager();
    // Library classes (containers) are not the program's objects.
    if (!Method ||
        SM.isInSystemHeader(SM.getExpansionLoc(Method->getLocation())))
      return nullptr;
    const CXXMethodDecl *Target = calledMethod(Call);
    const MemberEffects *Effects =
        Target ? Syncs.effects(Target, Provenances) : nullptr;
    if (!Effects) {
      eraseIf(D.Pending, [&](const PendingTransfer &P) {
        return (Object && P.Buffer.Object == Object) ||
               isa_and_nonnull<FieldDecl>(P.Stream.Decl);
      });
      return nullptr;
    }
    if (!Object)
      return Effects;
    for (const FieldDecl *Member : Effects->Reassigned)
      forgetMember(D, Member, Object);
    for (const MemberAccess &M : Effects->Accesses) {
      HostAccess A{Call, BufferRef{M.Member, {}, Object}, M.Kind, Call,
                   M.Spelled};
      for (auto It = D.Pending.begin(); It != D.Pending.end();) {
        const PendingTransfer &P = *It;
        if (P.Buffer.Base != M.Member || P.Buffer.Object != Object ||
            P.DeviceWrites != M.ConflictsWithDeviceWrites) {
          ++It;
          continue;
        }
        if (Hazards)
          Hazards->push_back({A, P});
        It = D.Pending.erase(It);
      }
    }
    return Effects;
  }

  static void forgetMember(Disjunct &D, const ValueDecl *Member,
                           const Decl *Object) {
    eraseIf(D.Pending, [&](const PendingTransfer &P) {
      return P.Buffer.Base == Member && P.Buffer.Object == Object;
    });
  }

  /// What the callee left in flight on the object's buffer members.
  void issueMemberTransfers(const CXXMemberCallExpr *Call,
                            const MemberEffects &Effects, const Decl *Object,
                            Disjunct &D) const {
    for (const MemberTransfer &M : Effects.Transfers) {
      PendingTransfer P = M.Transfer;
      P.Buffer.Object = Object;
      // On a stream the caller passed: named as the caller names it.
      if (M.StreamParam) {
        P.StreamArg = *M.StreamParam < Call->getNumArgs()
                          ? Call->getArg(*M.StreamParam)
                          : nullptr;
        P.Stream = P.StreamArg ? stream(P.StreamArg) : StreamRef::unknown();
      }
      D.Pending.insert(std::move(P));
    }
  }

  /// An object given to a call (other than as the object of a member
  /// function whose effects are known) may have its transfers synchronized
  /// there.
  void forgetObjectsGiven(const CallExpr *Call, Disjunct &D) const {
    if (lookupApi(Call))
      return;
    for (const Expr *Arg : Call->arguments())
      if (const Decl *Object = objectArgument(Arg, Function))
        eraseIf(D.Pending, [&](const PendingTransfer &P) {
          return P.Buffer.Object == Object;
        });
  }

  const FunctionDecl *Function;
  ASTContext &Ctx;
  ProvenanceAnalysis &Provenances;
  const FunctionProvenance &Provenance;
  SyncSummaries &Syncs;
  const HostAccessFinder &Accesses;
  std::set<PendingTransfer> Seed;
  std::set<const VarDecl *> LoopCounters;
  std::set<const ValueDecl *> NonBlocking;
  BranchFacts Branches;
  /// Compiled with --default-stream per-thread: 0 is the per-thread stream.
  bool PerThread;
};

/// The must-analysis behind SyncSummary: what is synchronized on every path
/// to the exit.
struct SyncState {
  bool Device = false;
  /// Stream and event parameters, and members of the function's own
  /// object.
  std::set<const ParmVarDecl *> Streams, Events;
  std::set<const FieldDecl *> StreamMembers, EventMembers;
  bool operator==(const SyncState &O) const {
    return Device == O.Device && Streams == O.Streams && Events == O.Events &&
           StreamMembers == O.StreamMembers && EventMembers == O.EventMembers;
  }
};

template <typename T>
void intersectInto(std::set<T> &Into, const std::set<T> &From) {
  std::set<T> Both;
  std::set_intersection(Into.begin(), Into.end(), From.begin(), From.end(),
                        std::inserter(Both, Both.begin()));
  Into = std::move(Both);
}

class SyncDataflow {
public:
  using State = SyncState;
  explicit SyncDataflow(SyncSummaries &Syncs) : Syncs(Syncs) {}

  State entryState() const { return {}; }
  void join(State &Into, const State &From) const {
    Into.Device = Into.Device && From.Device;
    intersectInto(Into.Streams, From.Streams);
    intersectInto(Into.Events, From.Events);
    intersectInto(Into.StreamMembers, From.StreamMembers);
    intersectInto(Into.EventMembers, From.EventMembers);
  }
  bool transferEdge(const CFGBlock &, unsigned, State &) const { return true; }

  void transfer(const CFGElement &E, State &S) const {
    std::optional<CFGStmt> CS = E.getAs<CFGStmt>();
    const auto *Call = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
    if (!Call)
      return;
    // A stream or event the function was given, or a member of its own.
    auto Synced = [&](const Expr *Arg, bool Event) {
      if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(declRefVar(Arg)))
        (Event ? S.Events : S.Streams).insert(PD);
      else if (const FieldDecl *Member = thisMember(Arg))
        (Event ? S.EventMembers : S.StreamMembers).insert(Member);
    };
    if (const ApiSpec *Api = lookupApi(Call)) {
      if (Api->Kind == ApiKind::DeviceSync)
        S.Device = true;
      else if (Api->Kind == ApiKind::StreamSync)
        if (const Expr *Arg = Api->arg(Call, ArgRole::Stream))
          Synced(Arg, /*Event=*/false);
      if (Api->Kind == ApiKind::EventSync)
        if (const Expr *Arg = Api->arg(Call, ArgRole::Event))
          Synced(Arg, /*Event=*/true);
      return;
    }
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return;
    // A function nothing is known of is assumed to synchronize what it is
    // given (precision first).
    const SyncSummary *Summary = nullptr;
    CallSyncs Effect = Syncs.callSyncs(Call, FD, Summary);
    S.Device = S.Device || Effect.Device;
    for (unsigned I : Effect.Streams)
      Synced(Call->getArg(I), /*Event=*/false);
    for (unsigned I : Effect.Events)
      Synced(Call->getArg(I), /*Event=*/true);
    if (Summary) {
      // A member function of the same object: its members.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
        if (const Expr *Object = MC->getImplicitObjectArgument())
          if (isa<CXXThisExpr>(Object->IgnoreParenImpCasts())) {
            S.StreamMembers.insert(Summary->StreamMembers.begin(),
                                   Summary->StreamMembers.end());
            S.EventMembers.insert(Summary->EventMembers.begin(),
                                  Summary->EventMembers.end());
          }
    }
  }

private:
  SyncSummaries &Syncs;
};

} // namespace

CallSyncs SyncSummaries::callSyncs(const CallExpr *Call, const FunctionDecl *FD,
                                   const SyncSummary *&Summary) {
  SyncShape Shape;
  Shape.OpaqueWithoutSummary = isOpaqueFunction(FD, Ctx);
  Shape.NumArgs = Call->getNumArgs();
  for (unsigned I = 0; I < Shape.NumArgs; ++I) {
    QualType T = Call->getArg(I)->getType();
    if (isStreamType(T))
      Shape.Streams.push_back(I);
    else if (isEventType(T))
      Shape.Events.push_back(I);
  }
  Summary = summary(FD);
  if (!FD->hasBody())
    Program.note(FD, ProgramQuestion::Kind::Syncs, Shape.text());
  return cuda_async_lint::callSyncs(Summary, Shape);
}

const SyncSummary *SyncSummaries::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  // Defined in another unit of the program: its summary there.
  if (!FD->hasBody(Def)) {
    const FunctionFacts *Facts = Program.facts(FD);
    return Facts ? &Facts->Sync : nullptr;
  }
  if (!Def || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      InProgress.count(Def))
    return nullptr;
  if (auto It = Done.find(Def); It != Done.end())
    return &It->second;
  InProgress.insert(Def);
  SyncSummary Summary;
  if (std::unique_ptr<CFG> Cfg =
          buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true)) {
    SyncDataflow Dataflow(*this);
    std::vector<std::optional<SyncState>> In = solveForward(*Cfg, Dataflow);
    if (const std::optional<SyncState> &Exit =
            In[Cfg->getExit().getBlockID()]) {
      Summary.Device = Exit->Device;
      for (unsigned I = 0; I < Def->getNumParams(); ++I) {
        if (Exit->Streams.count(Def->getParamDecl(I)))
          Summary.StreamParams.insert(I);
        if (Exit->Events.count(Def->getParamDecl(I)))
          Summary.EventParams.insert(I);
      }
      Summary.StreamMembers = Exit->StreamMembers;
      Summary.EventMembers = Exit->EventMembers;
    }
  }
  InProgress.erase(Def);
  return &(Done[Def] = std::move(Summary));
}

/// Calls \p F on every statement under \p Root.
template <typename Fn> static void forEachStmt(const Stmt *Root, Fn F) {
  if (!Root)
    return;
  F(Root);
  for (const Stmt *Child : Root->children())
    forEachStmt(Child, F);
}

/// 'h', 'this->h', 'values.data()': a member named whole.
static bool isWholeMember(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    if (!MD || !MD->getIdentifier() || MD->getName() != "data")
      return false;
    E = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  return isa<MemberExpr>(E);
}

SyncSummaries::SyncSummaries(ASTContext &Ctx)
    : Ctx(Ctx), Program(Ctx.getSourceManager()) {}
SyncSummaries::~SyncSummaries() = default;

/// The buffer members of \p Class and its bases: pointers to data, arrays,
/// and containers.
static void bufferMembers(const CXXRecordDecl *Class,
                          std::vector<const FieldDecl *> &Out, int Depth = 0) {
  if (!Class || !Class->hasDefinition() || Depth > 8)
    return;
  for (const FieldDecl *F : Class->fields()) {
    QualType T = F->getType();
    if ((T->isPointerType() && !T->getPointeeType()->isFunctionType()) ||
        T->isArrayType() || isPageableContainer(T))
      Out.push_back(F);
  }
  for (const CXXBaseSpecifier &Base : Class->bases())
    bufferMembers(Base.getType()->getAsCXXRecordDecl(), Out, Depth + 1);
}

const MemberEffects *SyncSummaries::effects(const CXXMethodDecl *MD,
                                            ProvenanceAnalysis &Provenance) {
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def || MD->isStatic() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      EffectsInProgress.count(Def))
    return nullptr;
  if (auto It = Effects.find(Def); It != Effects.end())
    return It->second.get();
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return nullptr;
  EffectsInProgress.insert(Def);
  // Stand-ins for the caller's transfers: one per buffer member and kind,
  // on a stream any sync may cover (precision first). The first access
  // each meets is the access the caller's transfer would.
  std::set<PendingTransfer> Seed;
  std::vector<const FieldDecl *> Members;
  bufferMembers(cast<CXXMethodDecl>(Def)->getParent(), Members);
  for (const FieldDecl *F : Members)
    for (bool DeviceWrites : {false, true})
      Seed.insert({nullptr, BufferRef{F, {}, Def}, StreamRef::unknown(),
                   nullptr, DeviceWrites});
  HostAccessFinder Accesses(Def);
  TransferDataflow Dataflow(Def, Ctx, Provenance, *this, Accesses,
                            std::move(Seed));
  std::vector<TransferHazard> Hazards;
  std::vector<std::optional<PendingState>> In =
      solveAndReplay(*Cfg, Dataflow, Hazards);
  auto Result = std::make_unique<MemberEffects>();
  // Pointer members it points elsewhere, itself or through a member
  // function of its own object.
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    llvm::SmallVector<BufferRef, 2> Reassigned;
    Accesses.reassignedMembers(S, Reassigned);
    for (const BufferRef &B : Reassigned)
      if (B.Object == Def)
        Result->Reassigned.insert(cast<FieldDecl>(B.Base));
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      if (calledObject(Call, Def) == Def)
        if (const CXXMethodDecl *Callee = calledMethod(Call))
          if (const MemberEffects *Inner = effects(Callee, Provenance))
            Result->Reassigned.insert(Inner->Reassigned.begin(),
                                      Inner->Reassigned.end());
  });
  for (const TransferHazard &H : Hazards)
    if (!H.Transfer.Op) // A stand-in: the caller's transfer would meet it.
      Result->Accesses.push_back(
          {cast<FieldDecl>(H.Transfer.Buffer.Base), H.Access.Kind, H.Access.At,
           H.Access.Within ? H.Access.Within : H.Access.Spelled,
           H.Transfer.DeviceWrites});
  std::set<PendingTransfer> Left;
  if (const std::optional<PendingState> &Exit = In[Cfg->getExit().getBlockID()])
    for (const Disjunct &D : Exit->Disjuncts)
      for (const PendingTransfer &P : D.Pending)
        // The whole member, of this object, as written: a slice ('h + i',
        // 'slots[current]') may not be the part the caller touches next.
        if (P.Op && P.Buffer.Object == Def && P.Buffer.Deps.empty() &&
            isa<FieldDecl>(P.Buffer.Base) && P.HostArg &&
            isWholeMember(P.HostArg))
          Left.insert(P);
  for (PendingTransfer P : Left) {
    MemberTransfer M{P, std::nullopt};
    M.Transfer.Buffer.Object = nullptr;
    if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(P.Stream.Decl))
      M.StreamParam = PD->getFunctionScopeIndex();
    else if (P.Stream.Decl && !isa<FieldDecl>(P.Stream.Decl))
      M.Transfer.Stream = StreamRef::unknown(); // A local stream.
    Result->Transfers.push_back(std::move(M));
  }
  EffectsInProgress.erase(Def);
  return (Effects[Def] = std::move(Result)).get();
}

std::vector<TransferHazard> findTransferHazards(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                ProvenanceAnalysis &Provenance,
                                                SyncSummaries &Syncs) {
  std::vector<TransferHazard> Hazards;
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(FD, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return Hazards;
  HostAccessFinder Accesses(FD);
  TransferDataflow Dataflow(FD, Ctx, Provenance, Syncs, Accesses);
  solveAndReplay(*Cfg, Dataflow, Hazards);
  return Hazards;
}

} // namespace cuda_async_lint
