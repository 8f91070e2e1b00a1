//===- ReleaseSite.h - Matching API calls and releases ----------*- C++ -*-===//
//
// A release: a catalogued releaser (free, cudaFreeHost, cudaFree, ...),
// realloc (which releases its argument), or a delete expression using the
// global operator delete.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_RELEASESITE_H
#define CUDA_ASYNC_LINT_API_RELEASESITE_H

#include "CudaApiCatalog.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include <optional>
#include <string>

namespace cuda_async_lint {

struct ReleaseSite {
  /// The call or delete expression.
  const clang::Expr *At;
  /// The pointer released.
  const clang::Expr *Ptr;
  /// How the release is spelled in messages: "free", "delete[]", ...
  std::string Releaser;
  /// The memory this releaser may be given.
  MemoryKind Expects;
  /// The catalogued call; null for delete expressions.
  const ApiSpec *Api;
};

/// Matches calls of the catalogued APIs of kind \p K (and mode \p M), under
/// any of their renamed spellings.
clang::ast_matchers::StatementMatcher
apiCall(ApiKind K, std::optional<ApiMode> M = std::nullopt);

/// Matches the calls and delete expressions releaseSite() understands,
/// bound to \p Id.
clang::ast_matchers::StatementMatcher releaseSiteMatcher(llvm::StringRef Id);

/// The release \p E performs, if it is one.
std::optional<ReleaseSite> releaseSite(const clang::Expr *E);

/// The call that must release memory allocated by \p Allocation (a catalogued
/// allocator call or a new expression): "free", "cudaFreeHost", "delete[]",
/// ... Empty if there is none to name.
std::string matchingReleaser(const clang::Stmt *Allocation);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_RELEASESITE_H
