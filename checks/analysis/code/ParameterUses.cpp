//===- ParameterUses.cpp --------------------------------------------------===//

#include "ParameterUses.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// Helpers followed this deep; deeper ones are taken to touch.
constexpr unsigned MaxDepth = 4;

bool touches(const FunctionDecl *Callee, unsigned Param, unsigned Depth);

/// Whether \p E is the parameter itself, under casts.
bool namesParameter(const Expr *E, const ParmVarDecl *P) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
  return DRE && DRE->getDecl() == P;
}

/// Whether \p Call hands \p P over without a host access of its own.
bool handsOver(const CallExpr *Call, const ParmVarDecl *P, unsigned Depth) {
  if (isa<CUDAKernelCallExpr>(Call))
    return true;
  if (const ApiSpec *Api = lookupApi(Call))
    return (Api->Kind == ApiKind::Copy || Api->Kind == ApiKind::Memset) &&
           Api->Mode == ApiMode::Async;
  if (isa<CXXOperatorCallExpr>(Call))
    return false;
  const FunctionDecl *Next = Call->getDirectCallee();
  if (!Next)
    return false;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    if (namesParameter(Call->getArg(I), P) && touches(Next, I, Depth + 1))
      return false;
  return true;
}

/// Whether \p S uses \p P other than as handed over whole by a call.
bool usesOnHost(const Stmt *S, const ParmVarDecl *P, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == P;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    bool Given = llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
      return namesParameter(Arg, P);
    });
    if (Given && !handsOver(Call, P, Depth))
      return true;
    // Its other arguments, and the parameter inside a larger argument
    // ('p + n', 'p[0]'), are looked at as any expression.
    for (const Stmt *Child : S->children())
      if (const auto *Arg = dyn_cast<Expr>(Child))
        if (!(Given && namesParameter(Arg, P)) && usesOnHost(Arg, P, Depth))
          return true;
    return false;
  }
  for (const Stmt *Child : S->children())
    if (usesOnHost(Child, P, Depth))
      return true;
  return false;
}

bool touches(const FunctionDecl *Callee, unsigned Param, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > MaxDepth || !Callee || !Callee->hasBody(Def) || !Def ||
      Param >= Def->getNumParams())
    return true;
  const SourceManager &SM = Def->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
    return true;
  return usesOnHost(Def->getBody(), Def->getParamDecl(Param), Depth);
}

} // namespace

bool mayTouchOnHost(const FunctionDecl *Callee, unsigned Param) {
  return touches(Callee, Param, 0);
}

} // namespace cuda_async_lint
