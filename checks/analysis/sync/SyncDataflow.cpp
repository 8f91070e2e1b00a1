//===- SyncDataflow.cpp - What a function always synchronizes -------------===//

#include "SyncDataflow.h"
#include "DeviceWaitLoops.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include <algorithm>
#include <iterator>

using namespace clang;

namespace cuda_async_lint {

namespace {

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
  SyncDataflow(const SourceManager &SM, CallSyncsQuery CallSyncsOf)
      : CallSyncsOf(CallSyncsOf), WaitLoops(SM) {}

  State entryState() const { return {}; }
  void join(State &Into, const State &From) const {
    Into.Device = Into.Device && From.Device;
    intersectInto(Into.Streams, From.Streams);
    intersectInto(Into.Events, From.Events);
    intersectInto(Into.StreamMembers, From.StreamMembers);
    intersectInto(Into.EventMembers, From.EventMembers);
  }
  bool transferEdge(const CFGBlock &From, unsigned SuccIndex, State &S) const {
    // A loop that waits for the device in every iteration runs at least
    // once (DeviceWaitLoops.h).
    if (WaitLoops.leaves(From, SuccIndex, CallSyncsOf))
      S.Device = true;
    return true;
  }

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
    CallSyncs Effect = CallSyncsOf(Call, FD, Summary);
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
  CallSyncsQuery CallSyncsOf;
  DeviceWaitLoops WaitLoops;
};

} // namespace

SyncSummary summarizeSyncs(const FunctionDecl *Def, ASTContext &Ctx,
                           CallSyncsQuery CallSyncsOf) {
  SyncSummary Summary;
  if (std::unique_ptr<CFG> Cfg =
          buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true)) {
    SyncDataflow Dataflow(Ctx.getSourceManager(), CallSyncsOf);
    std::vector<std::optional<SyncState>> In = solveForward(*Cfg, Dataflow);
    // Only the paths that return count: an aborting check of a failed call
    // before the wait leaves the caller nothing to go on with.
    if (const std::optional<SyncState> Exit = returnState(*Cfg, Dataflow, In)) {
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
  return Summary;
}

} // namespace cuda_async_lint
