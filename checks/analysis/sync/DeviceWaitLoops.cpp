//===- DeviceWaitLoops.cpp ------------------------------------------------===//

#include "DeviceWaitLoops.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Whether \p S may leave the iteration it is in: a break or continue of
/// that loop, a return, a goto. Nested loops and switches keep their own
/// breaks.
bool mayLeave(const Stmt *S, bool InNestedLoop = false,
              bool InNestedSwitch = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InNestedLoop && !InNestedSwitch;
  if (isa<ContinueStmt>(S))
    return !InNestedLoop;
  if (isa<LambdaExpr>(S))
    return false;
  bool Loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (mayLeave(Child, InNestedLoop || Loop, InNestedSwitch || Switch))
      return true;
  return false;
}

class DeviceWaits {
public:
  explicit DeviceWaits(CallSyncsQuery CallSyncsOf) : CallSyncsOf(CallSyncsOf) {}

  /// Whether every path through \p S reaches a device sync before it may
  /// leave the iteration.
  bool always(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Compound->body()) {
        if (always(Child))
          return true;
        if (mayLeave(Child))
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

bool waitsForTheDeviceEveryIteration(const Stmt *Loop,
                                     CallSyncsQuery CallSyncsOf) {
  const Stmt *Body = loopBody(Loop);
  return Body && DeviceWaits(CallSyncsOf).always(Body);
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
    It->second = waitsForTheDeviceEveryIteration(Loop, CallSyncsOf);
  return It->second;
}

} // namespace cuda_async_lint
