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

#include "analysis/code/FunctionCache.h"
#include "analysis/dataflow/BodyParents.h"
#include "analysis/dataflow/LastIteration.h"
#include "analysis/serialization/IterationWork.h"
#include "cuda-async-lint/Check.h"
#include <memory>
#include <optional>
#include <set>

namespace cuda_async_lint {

class SyncSummaries;

class SyncInLoopCheck : public Check {
public:
  explicit SyncInLoopCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  /// A call in a loop of a function that waits for the work it issues on
  /// the stream of each iteration (CallsThatWait.h).
  void runOnCall(const clang::CallExpr *Call,
                 const clang::FunctionDecl *Function,
                 const clang::ast_matchers::MatchFinder::MatchResult &R);
  struct FunctionFacts {
    /// Compiled with the per-thread default stream.
    bool PerThread = false;
    /// What each synchronization waits for of its iteration's work.
    std::map<const clang::CallExpr *, std::vector<WaitedOperation>> Waits;
  };
  FunctionFacts factsOf(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);
  /// What a loop's every wait shares, computed once per loop.
  struct LoopFacts {
    /// Its iterations use two or more streams.
    bool CanOverlap = false;
    /// The variables its continuation (condition, exiting branches) reads.
    std::set<const clang::VarDecl *> ControlVars;
  };
  const LoopFacts &loopFacts(const clang::Stmt *Loop, bool PerThread,
                             const clang::ASTContext &Ctx);
  void resetTranslationUnit() override {
    Cache.clear();
    Loops.clear();
    Creations.reset();
    Parents.clear();
    Syncs.reset();
    LastPasses.reset();
  }

  FunctionCache<FunctionFacts> Cache;
  BodyParents Parents;
  std::map<const clang::Stmt *, LoopFacts> Loops;
  /// How the unit creates its streams, scanned at the first wait in a loop.
  std::optional<StreamCreations> Creations;
  /// What the unit's functions synchronize, from the first call in a loop.
  std::shared_ptr<SyncSummaries> Syncs;
  /// Which waits run in their loops' last pass only.
  std::optional<LastIterations> LastPasses;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SYNCINLOOPCHECK_H
