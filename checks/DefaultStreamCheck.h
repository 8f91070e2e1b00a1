//===- DefaultStreamCheck.h - cuda-async-default-stream ---------*- C++ -*-===//
//
// Work on the legacy default stream that destroys overlap. "The legacy
// default stream ... synchronizes with all other blocking streams": work on
// it waits for all earlier work on the device and holds back all later work.
// An async transfer on it inside a loop, a kernel on it in a loop that
// transfers, or any async operation on it beside created streams serializes
// the pipeline. With --default-stream per-thread there is no implicit
// synchronization, but a loop on one stream still serializes its own work.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H
#define CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H

#include "analysis/FunctionCache.h"
#include "cuda-async-lint/Check.h"

namespace cuda_async_lint {

class DefaultStreamCheck : public Check {
public:
  explicit DefaultStreamCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// What the check needs to know about a whole function.
  struct FunctionFacts {
    /// Compiled with --default-stream per-thread.
    bool PerThread = false;
    /// The first async operation on a created stream, if any.
    const clang::CallExpr *OnCreatedStream = nullptr;
  };
  static FunctionFacts factsOf(const clang::FunctionDecl *FD);
  void resetTranslationUnit() override { Facts.clear(); }

  FunctionCache<FunctionFacts> Facts;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H
