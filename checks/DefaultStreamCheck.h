//===- DefaultStreamCheck.h - cuda-async-default-stream ---------*- C++ -*-===//
//
// Work on the legacy default stream that destroys overlap. "The legacy
// default stream ... synchronizes with all other blocking streams": work on
// it waits for all earlier work on the device and holds back all later work
// of blocking streams. It is reported where that costs overlap: when work on
// a created stream is issued while it may still be pending (later in the
// function, or in the next iteration of a loop). A final join on the legacy
// stream after a fan-out, followed by a wait or nothing, costs nothing. With
// --default-stream per-thread, 0 is the per-thread stream and only
// cudaStreamLegacy written out is the legacy stream.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H
#define CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H

#include "analysis/code/FunctionCache.h"
#include "analysis/pending/PendingTransfers.h"
#include "analysis/serialization/LegacyStreamWork.h"
#include "analysis/sync/NonBlockingStreams.h"
#include "cuda-async-lint/Check.h"
#include <optional>

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
    /// Legacy-stream operations and the first created-stream work each
    /// holds back.
    std::map<const clang::CallExpr *, const clang::CallExpr *> HoldsBack;
  };
  void resetTranslationUnit() override;

  FunctionCache<FunctionFacts> Facts;
  std::shared_ptr<SyncSummaries> Syncs;
  /// The unit's stream creations, found at its first legacy operation.
  std::optional<StreamCreations> Creations;
  /// The unit's functions' legacy work, as their callers see it.
  std::optional<LegacyCallees> Callees;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DEFAULTSTREAMCHECK_H
