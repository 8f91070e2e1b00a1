//===- ParameterReleases.cpp ----------------------------------------------===//

#include "ParameterReleases.h"
#include "LocalAliases.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The parameter \p E is, under casts and local aliases.
const ParmVarDecl *releasedParameter(const Expr *E, const LocalAliases &Local,
                                     unsigned Depth = 0) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  if (!DRE)
    return nullptr;
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && Depth < 4)
    if (auto It = Local.Aliases.find(VD); It != Local.Aliases.end())
      return releasedParameter(It->second, Local, Depth + 1);
  return dyn_cast<ParmVarDecl>(DRE->getDecl());
}

/// The releases under \p S that run whenever \p S does: not under a branch,
/// a loop or a lambda; an error-check macro's condition and a
/// 'do { } while (0)' body run.
void collect(const Stmt *S, const FunctionDecl *FD, const LocalAliases &Local,
             std::vector<ParameterRelease> &Out) {
  if (!S || isa<LambdaExpr, SwitchStmt, ConditionalOperator, ForStmt, WhileStmt,
                CXXForRangeStmt, CXXTryStmt>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    collect(If->getInit(), FD, Local, Out);
    collect(If->getCond(), FD, Local, Out);
    return;
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<int64_t> Cond =
        integerConstant(Do->getCond(), FD->getASTContext());
    if (Cond && *Cond == 0)
      collect(Do->getBody(), FD, Local, Out);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<ReleaseSite> Site = releaseSite(E))
      if (const ParmVarDecl *P = releasedParameter(Site->Ptr, Local);
          P && P->getDeclContext() == FD)
        Out.push_back({P->getFunctionScopeIndex(), std::move(*Site)});
  for (const Stmt *Child : S->children())
    collect(Child, FD, Local, Out);
}

} // namespace

std::vector<ParameterRelease> parameterReleases(const FunctionDecl *FD) {
  std::vector<ParameterRelease> Out;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || Def->isDependentContext())
    return Out;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return Out;
  collect(Def->getBody(), Def, findLocalAliases(Def), Out);
  return Out;
}

} // namespace cuda_async_lint
