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
    if (isRepeatingLoop(Parent, Ctx))
      return Parent;
    Parents = Ctx.getParents(*Parent);
  }
  return nullptr;
}

bool isRepeatingLoop(const Stmt *S, ASTContext &Ctx) {
  if (isa<ForStmt, WhileStmt, CXXForRangeStmt>(S))
    return true;
  const auto *Do = dyn_cast<DoStmt>(S);
  if (!Do)
    return false;
  const Expr *Cond = Do->getCond();
  bool Repeats = true;
  return Cond->isValueDependent() ||
         !Cond->EvaluateAsBooleanCondition(Repeats, Ctx) || Repeats;
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

bool isWrittenWithin(const Stmt *Inner, const Stmt *Outer,
                     const SourceManager &SM) {
  SourceLocation At = SM.getExpansionLoc(Inner->getBeginLoc());
  return !SM.isBeforeInTranslationUnit(
             At, SM.getExpansionLoc(Outer->getBeginLoc())) &&
         !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Outer->getEndLoc()),
                                       At);
}

} // namespace cuda_async_lint
