//===- ReleaseSite.cpp ----------------------------------------------------===//

#include "ReleaseSite.h"
#include "ProjectApis.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

static StatementMatcher callOfAny(const std::vector<std::string> &Names) {
  return callExpr(callee(functionDecl(
      hasAnyName(std::vector<llvm::StringRef>(Names.begin(), Names.end())))));
}

StatementMatcher apiCall(ApiKind K, std::optional<ApiMode> M) {
  return callOfAny(apiNames(K, M));
}

StatementMatcher releaseSiteMatcher(llvm::StringRef Id) {
  std::vector<std::string> Names = apiNames(ApiKind::Release);
  // A project's releasers (ProjectApis.h) release too; its allocators are
  // no CUDA allocation (a pool's is cheap in a loop), so apiNames omits them.
  for (std::string &Project : projectApiNames(ApiKind::Release))
    Names.push_back(std::move(Project));
  for (const std::string &Realloc : apiNames(ApiKind::Allocate))
    if (llvm::StringRef(Realloc).starts_with("realloc"))
      Names.push_back(Realloc);
  return stmt(anyOf(callExpr(callee(
                        functionDecl(hasAnyName(std::vector<llvm::StringRef>(
                            Names.begin(), Names.end()))))),
                    cxxDeleteExpr()))
      .bind(Id);
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
