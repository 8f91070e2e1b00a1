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
#include "api/ReleaseSite.h"

namespace cuda_async_lint {

class DeallocMismatchCheck : public ProvenanceCheck {
public:
  explicit DeallocMismatchCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// CUDA's releaser given storage no allocator returned.
  void reportUnallocated(const ReleaseSite &Site, const HostProvenance &P,
                         clang::ASTContext &Ctx);
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DEALLOCMISMATCHCHECK_H
