//===- SyncInLoopCheck.h - cuda-async-sync-in-loop --------------*- C++ -*-===//
//
// A host synchronization inside a loop that waits for the async work issued
// earlier in the same iteration. Each iteration then waits for its own
// copies and kernels, and the batches cannot overlap: the loop runs as if
// it were synchronous. Move the wait after the loop, or wait for the
// previous iteration's work (double buffering).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_SYNCINLOOPCHECK_H
#define CUDA_ASYNC_LINT_SYNCINLOOPCHECK_H

#include "analysis/FunctionCache.h"
#include "cuda-async-lint/Check.h"

namespace cuda_async_lint {

class SyncInLoopCheck : public Check {
public:
  explicit SyncInLoopCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  void resetTranslationUnit() override { PerThreadDefault.clear(); }

  /// Whether each function was compiled with the per-thread default stream.
  FunctionCache<bool> PerThreadDefault;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SYNCINLOOPCHECK_H
