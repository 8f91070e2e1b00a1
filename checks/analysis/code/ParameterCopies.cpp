//===- ParameterCopies.cpp ------------------------------------------------===//

#include "ParameterCopies.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The parameter \p E points into: 'h', 'h + n', '&h[i]' under casts.
const ParmVarDecl *pointedParameter(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const Expr *Operand = addressOfOperand(E))
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Operand))
      E = Sub->getBase()->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType())
    E = BO->getLHS()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

/// The copies under \p S that run whenever \p S does: not under a branch
/// (an if's arms, a switch, '?:'), a loop or a lambda. A copy in an if's
/// condition runs ('if (cudaMemcpyAsync(...) != cudaSuccess)', the shape of
/// error-check macros), as does a 'do { } while (0)' body.
void collect(const Stmt *S, const FunctionDecl *FD,
             std::vector<ParameterCopy> &Out) {
  if (!S || isa<LambdaExpr, SwitchStmt, ConditionalOperator, ForStmt, WhileStmt,
                CXXForRangeStmt, CXXTryStmt>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    collect(If->getInit(), FD, Out);
    collect(If->getCond(), FD, Out);
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<int64_t> Cond =
        integerConstant(Do->getCond(), FD->getASTContext());
    if (Cond && *Cond == 0)
      collect(Do->getBody(), FD, Out);
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const ApiSpec *Api = lookupApi(Call);
        Api && Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async)
      for (const HostSide &Side : hostSides(Call, *Api, FD->getASTContext()))
        if (const ParmVarDecl *P = pointedParameter(Side.Arg))
          if (P->getDeclContext() == FD)
            Out.push_back({P->getFunctionScopeIndex(), Call, Side});
  for (const Stmt *Child : S->children())
    collect(Child, FD, Out);
}

} // namespace

std::vector<ParameterCopy> parameterCopies(const FunctionDecl *FD) {
  std::vector<ParameterCopy> Out;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
    return Out;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return Out;
  collect(Def->getBody(), Def, Out);
  return Out;
}

} // namespace cuda_async_lint
