//===- DeviceWaitLoops.cpp ------------------------------------------------===//

#include "DeviceWaitLoops.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p S may end the iteration of \p Loop on a path that goes on to
/// the loop's condition, and so to its exit edge: a continue of that loop,
/// a goto to a label inside it. A break, return, throw or goto out of the
/// loop takes other edges, whose state the dataflow carries as it is.
bool mayReachTheCondition(const Stmt *S, const Stmt *Loop,
                          const SourceManager &SM, bool InNestedLoop = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<IndirectGotoStmt>(S))
    return true;
  if (const auto *Goto = dyn_cast<GotoStmt>(S)) {
    SourceRange L = Loop->getSourceRange();
    SourceLocation Target = Goto->getLabel()->getLocation();
    return !L.isValid() || !Target.isValid() ||
           SM.isPointWithin(Target, L.getBegin(), L.getEnd());
  }
  if (isa<ContinueStmt>(S))
    return !InNestedLoop;
  bool Nested = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  for (const Stmt *Child : S->children())
    if (mayReachTheCondition(Child, Loop, SM, InNestedLoop || Nested))
      return true;
  return false;
}

class DeviceWaits {
public:
  DeviceWaits(const Stmt *Loop, const SourceManager &SM,
              CallSyncsQuery CallSyncsOf)
      : Loop(Loop), SM(SM), CallSyncsOf(CallSyncsOf) {}

  /// Whether every path through \p S that goes on to the loop's condition
  /// reaches a device sync first.
  bool always(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Compound->body()) {
        if (always(Child))
          return true;
        if (mayReachTheCondition(Child, Loop, SM))
          return false;
      }
      return false;
    }
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return always(Do->getBody());
    if (const auto *If = dyn_cast<IfStmt>(S))
      return evaluates(If->getCond()) ||
             (always(If->getThen()) && always(If->getElse()));
    if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      for (const auto *D : Decl->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() && evaluates(VD->getInit()))
            return true;
      return false;
    }
    if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
      return always(Attributed->getSubStmt());
    if (const auto *E = dyn_cast<Expr>(S))
      return evaluates(E);
    return false;
  }

private:
  /// Whether evaluating \p E always calls a device sync: a call of one, or
  /// an argument or operand evaluated unconditionally that does.
  bool evaluates(const Stmt *E) const {
    if (!E || isa<LambdaExpr>(E))
      return false;
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
      return evaluates(Cond->getCond());
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp())
      return evaluates(BO->getLHS());
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && syncsDevice(Call))
      return true;
    for (const Stmt *Child : E->children())
      if (evaluates(Child))
        return true;
    return false;
  }

  bool syncsDevice(const CallExpr *Call) const {
    if (const ApiSpec *Api = lookupApi(Call))
      return Api->Kind == ApiKind::DeviceSync;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return false;
    const SyncSummary *Summary = nullptr;
    return CallSyncsOf(Call, FD, Summary).Device;
  }

  const Stmt *Loop;
  const SourceManager &SM;
  CallSyncsQuery CallSyncsOf;
};

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop))
    return For->getCond() ? For->getBody() : nullptr;
  if (const auto *While = dyn_cast_or_null<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    return Range->getBody();
  return nullptr;
}

} // namespace

bool waitsForTheDeviceEveryIteration(const Stmt *Loop, const SourceManager &SM,
                                     CallSyncsQuery CallSyncsOf) {
  const Stmt *Body = loopBody(Loop);
  return Body && DeviceWaits(Loop, SM, CallSyncsOf).always(Body);
}

bool DeviceWaitLoops::leaves(const CFGBlock &From, unsigned SuccIndex,
                             CallSyncsQuery CallSyncsOf) const {
  // A loop's condition block ends in the loop; its second successor is
  // the exit.
  const Stmt *Loop = From.getTerminatorStmt();
  if (SuccIndex != 1 || From.succ_size() != 2 || !loopBody(Loop))
    return false;
  auto [It, New] = Known.try_emplace(Loop, false);
  if (New)
    It->second = waitsForTheDeviceEveryIteration(Loop, SM, CallSyncsOf);
  return It->second;
}

} // namespace cuda_async_lint
