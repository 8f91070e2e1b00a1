//===- Loops.cpp ----------------------------------------------------------===//

#include "Loops.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace cuda_async_lint {

const Stmt *enclosingLoop(const Stmt *S, const FunctionDecl *FD,
                          BodyParents &Parents, ASTContext &Ctx) {
  for (const Stmt *P = Parents.parent(FD, S); P; P = Parents.parent(FD, P)) {
    if (isa<LambdaExpr, BlockExpr>(P))
      return nullptr;
    if (isRepeatingLoop(P, Ctx))
      return P;
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
