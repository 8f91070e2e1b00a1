//===- LoopCalls.cpp - Where a function is called in a loop ---------------===//

#include "LoopCalls.h"
#include "Loops.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/code/UserCodeVisitor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The direct calls in the user's host code (HostFunctions: not device
/// code), by callee.
class CallGatherer : public UserCodeVisitor<CallGatherer> {
public:
  using Found = LoopCalls::CallSites;
  CallGatherer(ASTContext &Ctx, Found &Out)
      : UserCodeVisitor(Ctx.getSourceManager()), Host(HostFunctions::of(Ctx)),
        Out(Out) {}

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (const FunctionDecl *Caller = Callee ? Host.enclosing(Call) : nullptr)
      Out[Callee->getCanonicalDecl()].emplace_back(Call, Caller);
    return true;
  }

private:
  const HostFunctions &Host;
  Found &Out;
};

} // namespace

const std::vector<LoopCalls::InLoop> &
LoopCalls::callsInLoops(const FunctionDecl *Callee, ASTContext &Ctx) {
  Callee = Callee->getCanonicalDecl();
  auto Known = Answers.find(Callee);
  if (Known != Answers.end())
    return Known->second;
  if (!Gathered) {
    Gathered = true;
    CallGatherer(Ctx, Calls).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  std::vector<InLoop> Found;
  for (const auto &[Call, Caller] : Calls.lookup(Callee))
    if (const Stmt *Loop = enclosingLoop(Call, Caller, Parents, Ctx))
      Found.push_back({Call, Caller, Loop});
  const SourceManager &SM = Ctx.getSourceManager();
  // Calls at one location (a macro's) are alike for what is reported.
  llvm::sort(Found, [&](const InLoop &A, const InLoop &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  });
  return Answers[Callee] = std::move(Found);
}

} // namespace cuda_async_lint
