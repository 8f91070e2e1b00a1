//===- LoopCalls.cpp - Where a function is called in a loop ---------------===//

#include "LoopCalls.h"
#include "Loops.h"
#include "analysis/code/HostFunctions.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cuda_async_lint {

const std::vector<LoopCalls::InLoop> &
LoopCalls::callsInLoops(const FunctionDecl *Callee, ASTContext &Ctx) {
  Callee = Callee->getCanonicalDecl();
  auto Known = Answers.find(Callee);
  if (Known != Answers.end())
    return Known->second;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Gathered) {
    Gathered = true;
    // The user's code: not an uninstantiated template's, not the C++
    // library's own loops.
    HostFunctions::of(Ctx).forEachCall(
        [&](const CallExpr *Call, const FunctionDecl *Caller) {
          const FunctionDecl *Target = Call->getDirectCallee();
          if (Target && !Caller->isDependentContext() &&
              !SM.isInSystemHeader(Caller->getLocation()))
            Calls[Target->getCanonicalDecl()].emplace_back(Call, Caller);
        });
  }
  std::vector<InLoop> Found;
  for (const auto &[Call, Caller] : Calls.lookup(Callee))
    if (const Stmt *Loop = enclosingLoop(Call, Caller, Parents, Ctx))
      Found.push_back({Call, Caller, Loop});
  // Calls at one location (a macro's) are alike for what is reported.
  llvm::sort(Found, [&](const InLoop &A, const InLoop &B) {
    return SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        B.Call->getBeginLoc());
  });
  return Answers[Callee] = std::move(Found);
}

} // namespace cuda_async_lint
