//===- CopyIssuers.cpp ----------------------------------------------------===//

#include "CopyIssuers.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

bool CopyIssuers::issuesCopies(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return false;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return false;
  auto [It, New] = Known.try_emplace(Def, false);
  if (!New)
    return It->second; // Known, or in progress (a cycle): its other paths.
  bool Issues = scan(Def->getBody());
  Known[Def] = Issues;
  return Issues;
}

bool CopyIssuers::scan(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (const ApiSpec *Api = lookupApi(Call)) {
      if (Api->Kind == ApiKind::Copy && Api->Mode == ApiMode::Async)
        return true;
    } else if (issuesCopies(Call->getDirectCallee())) {
      return true;
    }
  }
  for (const Stmt *Child : S->children())
    if (scan(Child))
      return true;
  return false;
}

} // namespace cuda_async_lint
