//===- EveryCallCode.cpp --------------------------------------------------===//

#include "EveryCallCode.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

const FunctionDecl *userDefinition(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
    return nullptr;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  return SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) ? nullptr
                                                                     : Def;
}

void forEachStmtOnEveryCall(const Stmt *S, const ASTContext &Ctx,
                            bool IntoLoops,
                            llvm::function_ref<void(const Stmt *)> F) {
  if (!S || isa<LambdaExpr, SwitchStmt, ConditionalOperator, CXXTryStmt>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    forEachStmtOnEveryCall(If->getInit(), Ctx, IntoLoops, F);
    forEachStmtOnEveryCall(If->getCond(), Ctx, IntoLoops, F);
    return;
  }
  if (!IntoLoops) {
    if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(S))
      return;
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      std::optional<int64_t> Cond = integerConstant(Do->getCond(), Ctx);
      if (Cond && *Cond == 0)
        forEachStmtOnEveryCall(Do->getBody(), Ctx, IntoLoops, F);
      return;
    }
  }
  F(S);
  for (const Stmt *Child : S->children())
    forEachStmtOnEveryCall(Child, Ctx, IntoLoops, F);
}

} // namespace cuda_async_lint
