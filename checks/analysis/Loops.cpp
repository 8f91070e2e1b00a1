//===- Loops.cpp ----------------------------------------------------------===//

#include "Loops.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_async_lint {

const Stmt *enclosingLoop(const Stmt *S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (P.get<Decl>() || P.get<LambdaExpr>() || P.get<BlockExpr>())
      return nullptr;
    const auto *Parent = P.get<Stmt>();
    if (!Parent)
      return nullptr;
    if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(Parent))
      return Parent;
    if (const auto *Do = dyn_cast<DoStmt>(Parent)) {
      const Expr *Cond = Do->getCond();
      bool Repeats = true;
      if (Cond->isValueDependent() ||
          !Cond->EvaluateAsBooleanCondition(Repeats, Ctx) || Repeats)
        return Parent;
    }
    Parents = Ctx.getParents(*Parent);
  }
  return nullptr;
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop))
    return Range->getBody();
  return nullptr;
}

} // namespace cuda_async_lint
