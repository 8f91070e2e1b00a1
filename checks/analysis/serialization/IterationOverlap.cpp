//===- IterationOverlap.cpp -----------------------------------------------===//

#include "IterationOverlap.h"
#include "CallsThatIssue.h"
#include "analysis/dataflow/Loops.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/StreamRef.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <map>
#include <set>

using namespace clang;

namespace cuda_async_lint {

namespace {

/// A stream or event as one object: a variable or field, or an element of
/// an array, std::vector or std::array of them with a constant index
/// ('streams[0]'). Index is -1 for a whole variable.
using HandleKey = std::pair<const ValueDecl *, int64_t>;

/// The object \p E names, if it is one whatever the iteration: not an
/// element chosen by a variable, nor a default or unknown stream.
std::optional<HandleKey> handleKey(const Expr *E, const ASTContext &Ctx) {
  StreamRef S = streamRef(E);
  if (S.K == StreamRef::Kind::Named)
    return HandleKey{S.Decl, -1};
  if (S.K != StreamRef::Kind::ArrayElement || !E)
    return std::nullopt;
  // Every index constant, of each dimension ('done[1][0]').
  int64_t Key = 0;
  bool Indexed = false;
  for (const Expr *Part = handleObject(E)->IgnoreParenImpCasts();;) {
    const Expr *Base = nullptr, *Index = nullptr;
    if (const auto *Element = dyn_cast<ArraySubscriptExpr>(Part)) {
      Base = Element->getBase();
      Index = Element->getIdx();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Part);
               Op && Op->getOperator() == OO_Subscript &&
               Op->getNumArgs() == 2) {
      Base = Op->getArg(0);
      Index = Op->getArg(1);
    } else {
      break;
    }
    std::optional<int64_t> Value = integerConstant(Index, Ctx);
    if (!Value)
      return std::nullopt;
    Key = Key * 1000003 + *Value;
    Indexed = true;
    Part = Base->IgnoreParenImpCasts();
  }
  if (!Indexed)
    return std::nullopt;
  return HandleKey{S.Decl, Key};
}

/// What a loop body does to streams, in the order it is written: work,
/// event records and stream waits (nested loops included, lambdas and
/// captured work not).
struct Step {
  enum Kind { Work, Record, Wait } K;
  const Expr *Stream;
  const Expr *Event = nullptr;
  /// Under a branch or an inner loop: it may not run in every iteration.
  bool Conditional = false;
};

class LoopSteps : public RecursiveASTVisitor<LoopSteps> {
public:
  std::vector<AsyncOperation> Ops;
  std::vector<Step> Steps;

  explicit LoopSteps(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
#define CONDITIONAL(Class)                                                     \
  bool Traverse##Class(Class *S) {                                             \
    ++Conditional;                                                             \
    bool Continue = RecursiveASTVisitor::Traverse##Class(S);                   \
    --Conditional;                                                             \
    return Continue;                                                           \
  }
  CONDITIONAL(IfStmt)
  CONDITIONAL(SwitchStmt)
  CONDITIONAL(ConditionalOperator)
  CONDITIONAL(ForStmt)
  CONDITIONAL(WhileStmt)
  CONDITIONAL(CXXForRangeStmt)
#undef CONDITIONAL
  // 'do { ... } while (0)', the body of many macros, runs once.
  bool TraverseDoStmt(DoStmt *S) {
    bool Once = isa<IntegerLiteral>(S->getCond()->IgnoreParenImpCasts()) ||
                isa<CXXBoolLiteralExpr>(S->getCond()->IgnoreParenImpCasts());
    Conditional += !Once;
    bool Continue = RecursiveASTVisitor::TraverseDoStmt(S);
    Conditional -= !Once;
    return Continue;
  }
  bool VisitStmt(Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (const ApiSpec *Api = lookupApi(Call)) {
      switch (Api->Kind) {
      // Work issued while a stream capture is under way is recorded into a
      // graph, not run: it is no iteration's work.
      case ApiKind::CaptureBegin:
      case ApiKind::CaptureEnd:
        Capturing = Api->Kind == ApiKind::CaptureBegin;
        return true;
      case ApiKind::EventRecord:
      case ApiKind::StreamWaitEvent:
        if (!Capturing)
          Steps.push_back(
              {Api->Kind == ApiKind::EventRecord ? Step::Record : Step::Wait,
               Api->arg(Call, ArgRole::Stream), Api->arg(Call, ArgRole::Event),
               Conditional > 0});
        return true;
      default:
        break;
      }
    }
    // Handles bound in the body, in the order it is written.
    if (recordBinding(Call, Bound))
      return true;
    std::optional<AsyncOperation> Op = streamWork(S, Ctx, &Bound);
    // A call of the unit's that returns with its work in flight.
    if (!Op && Call)
      Op = workLeftInFlight(Call, Ctx);
    if (Op)
      if (!Capturing) {
        Ops.push_back(*Op);
        Steps.push_back({Step::Work, Op->Stream, nullptr, Conditional > 0});
      }
    return true;
  }

private:
  const ASTContext &Ctx;
  HandleStreams Bound;
  bool Capturing = false;
  unsigned Conditional = 0;
};

/// Whether \p Root forks every other stream's work in \p Steps from itself
/// and joins it back, in every iteration: before another stream's first
/// work, that stream waits for an event \p Root recorded earlier in the
/// body; after its last work, it records an event \p Root then waits for.
/// The records and waits must run in every iteration (not under a branch).
bool forksAndJoins(const HandleKey &Root, const std::set<HandleKey> &Streams,
                   const std::vector<Step> &Steps, const ASTContext &Ctx) {
  for (const HandleKey &Other : Streams) {
    if (Other == Root)
      continue;
    std::set<HandleKey> RootEvents, OtherEvents;
    bool Forked = false, Worked = false, Joined = false;
    for (const Step &S : Steps) {
      std::optional<HandleKey> Stream = handleKey(S.Stream, Ctx);
      std::optional<HandleKey> Event =
          S.Event ? handleKey(S.Event, Ctx) : std::nullopt;
      if (!Stream || (S.K != Step::Work && S.Conditional))
        continue;
      if (S.K == Step::Record && Event) {
        if (*Stream == Root)
          RootEvents.insert(*Event);
        else if (*Stream == Other && Worked)
          OtherEvents.insert(*Event);
      } else if (S.K == Step::Wait && Event) {
        if (*Stream == Other && RootEvents.count(*Event))
          Forked = true;
        else if (*Stream == Root && OtherEvents.count(*Event))
          Joined = true;
      } else if (S.K == Step::Work && *Stream == Other) {
        if (!Forked)
          return false; // Work not ordered after the root's.
        Worked = true;
        // Work after the join must be joined again.
        Joined = false;
        OtherEvents.clear();
      }
    }
    if (Worked && !Joined)
      return false;
  }
  return true;
}

/// Whether the local stream variable \p VD may name another stream in each
/// iteration of \p Loop: declared in its body from an element chosen per
/// iteration ('cudaStream_t s = st[i % 2];'), or assigned there such an
/// element or two different streams (the swap 'stream = stream == s1 ? s2 :
/// s1;' or its if/else). A value the analysis cannot name (a call's result)
/// keeps it one stream: precision first.
bool namesStreamPerIteration(const VarDecl *VD, const Stmt *Loop,
                             const ASTContext &Ctx) {
  if (!VD->isLocalVarDecl())
    return false;
  struct Values : RecursiveASTVisitor<Values> {
    const VarDecl *VD;
    const ASTContext &Ctx;
    std::set<HandleKey> Keys;
    bool PerIteration = false;
    Values(const VarDecl *VD, const ASTContext &Ctx) : VD(VD), Ctx(Ctx) {}
    void value(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
        value(C->getTrueExpr());
        value(C->getFalseExpr());
        return;
      }
      StreamRef S = streamRef(E);
      if (S.K != StreamRef::Kind::Named && S.K != StreamRef::Kind::ArrayElement)
        return;
      if (std::optional<HandleKey> Key = handleKey(E, Ctx))
        Keys.insert(*Key);
      else
        PerIteration = true;
    }
    bool VisitVarDecl(VarDecl *D) {
      if (D == VD && D->getInit())
        value(D->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() != BO_Assign)
        return true;
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
        if (Ref->getDecl() == VD)
          value(B->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
      if (Op->getOperator() != OO_Equal || Op->getNumArgs() != 2)
        return true;
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        if (Ref->getDecl() == VD)
          value(Op->getArg(1));
      return true;
    }
  } V(VD, Ctx);
  V.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  return V.PerIteration || V.Keys.size() > 1;
}

} // namespace

bool iterationsCanOverlap(const Stmt *Loop, bool PerThread,
                          const ASTContext &Ctx) {
  LoopSteps Body(Ctx);
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  std::set<HandleKey> Streams;
  std::map<const VarDecl *, bool> PerIteration;
  bool PerThreadStream = false;
  for (const AsyncOperation &Op : Body.Ops) {
    StreamRef S = streamRef(Op.Stream);
    switch (S.K) {
    case StreamRef::Kind::ArrayElement:
    case StreamRef::Kind::Named:
      if (const auto *VD = dyn_cast_or_null<VarDecl>(S.Decl);
          VD && S.K == StreamRef::Kind::Named) {
        auto [It, New] = PerIteration.try_emplace(VD, false);
        if (New)
          It->second = namesStreamPerIteration(VD, Loop, Ctx);
        if (It->second)
          return true; // A variable naming another stream each iteration.
      }
      if (std::optional<HandleKey> Key = handleKey(Op.Stream, Ctx))
        Streams.insert(*Key);
      else
        return true; // An element chosen per iteration: many streams.
      break;
    case StreamRef::Kind::PerThread:
    case StreamRef::Kind::Legacy:
      PerThreadStream |= isPerThreadStream(S, Op.Stream, PerThread);
      break;
    case StreamRef::Kind::Unknown:
      break;
    }
  }
  if (Streams.size() + PerThreadStream < 2)
    return false;
  if (PerThreadStream)
    return true;
  return llvm::none_of(Streams, [&](const HandleKey &Root) {
    return forksAndJoins(Root, Streams, Body.Steps, Ctx);
  });
}

bool eventsJoinStreams(const Stmt *Loop, const std::set<StreamRef> &Streams,
                       const ASTContext &Ctx) {
  if (Streams.size() < 2)
    return true;
  LoopSteps Body(Ctx);
  Body.TraverseStmt(const_cast<Stmt *>(loopBody(Loop)));
  auto Known = [](const StreamRef &S) {
    return S.K == StreamRef::Kind::Named ||
           S.K == StreamRef::Kind::ArrayElement;
  };
  // Which streams record each event, then who waits for whom.
  std::map<StreamRef, std::set<StreamRef>> Recorders;
  for (const Step &S : Body.Steps)
    if (S.K == Step::Record && !S.Conditional)
      if (StreamRef Event = streamRef(S.Event), Stream = streamRef(S.Stream);
          Known(Event) && Known(Stream))
        Recorders[Event].insert(Stream);
  std::map<StreamRef, std::set<StreamRef>> After; // stream -> its waiters
  for (const Step &S : Body.Steps)
    if (S.K == Step::Wait && !S.Conditional)
      if (StreamRef Event = streamRef(S.Event), Stream = streamRef(S.Stream);
          Known(Event) && Known(Stream))
        for (const StreamRef &Recorder : Recorders[Event])
          After[Recorder].insert(Stream);
  auto Reaches = [&](const StreamRef &From, const StreamRef &To) {
    std::set<StreamRef> Seen{From};
    std::vector<StreamRef> Work{From};
    while (!Work.empty()) {
      StreamRef S = Work.back();
      Work.pop_back();
      for (const StreamRef &Next : After[S])
        if (Seen.insert(Next).second)
          Work.push_back(Next);
    }
    return Seen.count(To) != 0;
  };
  const StreamRef &First = *Streams.begin();
  return llvm::all_of(Streams, [&](const StreamRef &S) {
    return Known(S) && Reaches(First, S) && Reaches(S, First);
  });
}

} // namespace cuda_async_lint
