//===- ReleaseSite.cpp ----------------------------------------------------===//

#include "ReleaseSite.h"
#include "ProjectApis.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

namespace {

/// A call of a catalogued CUDA API (not a project's own) of kind \p K and,
/// if given, mode \p M: one catalog lookup per call, where a list of every
/// spelling ('_v2', '_ptsz', ...) would compare names against each.
AST_MATCHER_P2(CallExpr, callsCatalogApi, ApiKind, K, std::optional<ApiMode>,
               M) {
  const ApiSpec *Api = lookupCatalogApi(Node.getDirectCallee());
  return Api && Api->Kind == K && (!M || Api->Mode == *M);
}

AST_MATCHER(Expr, isReleaseSite) { return releaseSite(&Node).has_value(); }

} // namespace

StatementMatcher apiCall(ApiKind K, std::optional<ApiMode> M) {
  return callExpr(callsCatalogApi(K, M));
}

StatementMatcher releaseSiteMatcher(llvm::StringRef Id) {
  // Project releasers (ProjectApis.h) and realloc release too.
  return expr(isReleaseSite()).bind(Id);
}

std::optional<ReleaseSite> releaseSite(const Expr *E) {
  if (const auto *Delete = dyn_cast<CXXDeleteExpr>(E)) {
    // A class's own operator delete manages its own memory.
    const FunctionDecl *Op = Delete->getOperatorDelete();
    if (!Op || !Op->isReplaceableGlobalAllocationFunction())
      return std::nullopt;
    return ReleaseSite{Delete, Delete->getArgument(),
                       Delete->isArrayForm() ? "delete[]" : "delete",
                       MemoryKind::Pageable, nullptr};
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const ApiSpec *Api = lookupApi(Call);
  if (!Api || !Api->Memory)
    return std::nullopt;
  const Expr *Ptr = releasedPointer(Call, *Api);
  if (!Ptr)
    return std::nullopt;
  return ReleaseSite{Call, Ptr, Api->Name.str(), *Api->Memory, Api};
}

std::string matchingReleaser(const Stmt *Allocation) {
  if (const auto *New = dyn_cast<CXXNewExpr>(Allocation))
    return New->isArray() ? "delete[]" : "delete";
  if (const auto *Call = dyn_cast<CallExpr>(Allocation))
    if (const ApiSpec *Api = lookupApi(Call))
      if (Api->Kind == ApiKind::Allocate)
        return Api->Counterpart.str();
  return "";
}

} // namespace cuda_async_lint
