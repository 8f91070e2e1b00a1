//===- ParameterReleases.cpp ----------------------------------------------===//

#include "ParameterReleases.h"
#include "EveryCallCode.h"
#include "LocalAliases.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

const Expr *withoutCasts(const Expr *E) { return E->IgnoreParenCasts(); }

} // namespace

std::vector<ParameterRelease> parameterReleases(const FunctionDecl *FD) {
  std::vector<ParameterRelease> Out;
  const FunctionDecl *Def = userDefinition(FD);
  if (!Def)
    return Out;
  LocalAliases Local = findLocalAliases(Def);
  // Not under a loop either: a release in a loop releases an element.
  forEachStmtOnEveryCall(
      Def->getBody(), Def->getASTContext(),
      /*IntoLoops=*/false, [&](const Stmt *S) {
        const auto *E = dyn_cast<Expr>(S);
        std::optional<ReleaseSite> Site = E ? releaseSite(E) : std::nullopt;
        if (!Site)
          return;
        if (const ParmVarDecl *P =
                parameterThroughAliases(Site->Ptr, Local, withoutCasts);
            P && P->getDeclContext() == Def)
          Out.push_back({P->getFunctionScopeIndex(), std::move(*Site)});
      });
  return Out;
}

} // namespace cuda_async_lint
