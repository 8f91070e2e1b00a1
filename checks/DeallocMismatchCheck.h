//===- DeallocMismatchCheck.h - cuda-async-dealloc-mismatch -----*- C++ -*-===//
//
// Memory released by the wrong function. "cudaFreeHost: frees page-locked
// memory ... allocated by cudaMallocHost or cudaHostAlloc"; free() and
// delete release what malloc and new allocated; cudaFree releases device
// and managed memory. A mismatch corrupts the heap or fails with
// cudaErrorInvalidValue, and is found today only by a crash.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DEALLOCMISMATCHCHECK_H
#define CUDA_ASYNC_LINT_DEALLOCMISMATCHCHECK_H

#include "ProvenanceCheck.h"
#include "analysis/code/FunctionCache.h"
#include "analysis/code/ParameterReleases.h"
#include "api/ReleaseSite.h"

namespace cuda_async_lint {

class DeallocMismatchCheck : public ProvenanceCheck {
public:
  explicit DeallocMismatchCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void resetTranslationUnit() override {
    ProvenanceCheck::resetTranslationUnit();
    HelperReleases.clear();
  }

private:
  /// CUDA's releaser given storage no allocator returned.
  void reportUnallocated(const ReleaseSite &Site, const HostProvenance &P,
                         const clang::FunctionDecl *Function,
                         clang::ASTContext &Ctx);
  /// A call that hands memory to a function of the unit that releases it
  /// with the wrong releaser, where the release itself cannot tell (the
  /// function has external linkage, or its callers disagree).
  void checkHelperCall(const clang::CallExpr *Call,
                       const clang::FunctionDecl *Helper,
                       const clang::FunctionDecl *Function,
                       clang::ASTContext &Ctx);
  /// What each function of the unit releases of its parameters.
  FunctionCache<std::vector<ParameterRelease>> HelperReleases;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DEALLOCMISMATCHCHECK_H
