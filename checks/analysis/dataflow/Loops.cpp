//===- Loops.cpp ----------------------------------------------------------===//

#include "Loops.h"
#include "analysis/code/StmtWalk.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include <set>

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

const Expr *loopCondition(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getCond();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getCond();
  return nullptr;
}

namespace {

/// The variables a loop's header declares or changes: its counters.
std::set<const VarDecl *> headerVariables(const Stmt *Loop) {
  std::set<const VarDecl *> Out;
  auto Collect = [&](const Stmt *S) {
    forEachStmtOutsideLambdas(S, [&](const Stmt *Node) {
      if (const auto *DS = dyn_cast<DeclStmt>(Node))
        for (const Decl *D : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(D))
            Out.insert(VD);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Node))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Out.insert(VD);
    });
  };
  if (const auto *For = dyn_cast<ForStmt>(Loop)) {
    Collect(For->getInit());
    Collect(For->getInc());
  } else if (const auto *Range = dyn_cast<CXXForRangeStmt>(Loop)) {
    Out.insert(Range->getLoopVariable());
  }
  return Out;
}

} // namespace

bool usesLoopCounter(const Stmt *E, const Stmt *Loop) {
  return mentionsAnyOf(E, headerVariables(Loop));
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
