//===- PinnedAllocInLoopCheck.h - pinned-alloc-in-loop ----------*- C++ -*-===//
//
// Pinned memory allocated or registered inside a loop whose iterations also
// release it or issue async transfers, or by a function that releases it
// before it returns and is called in a loop. Page-locking is a system call
// that maps and pins every page (often milliseconds for megabytes) and can
// stall other work; a loop that pins per iteration pays it every time.
// Allocate once, before the loop, and reuse the buffer.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_PINNEDALLOCINLOOPCHECK_H
#define CUDA_ASYNC_LINT_PINNEDALLOCINLOOPCHECK_H

#include "analysis/code/CopyIssuers.h"
#include "analysis/code/FunctionCache.h"
#include "analysis/dataflow/BodyParents.h"
#include "analysis/dataflow/LoopCalls.h"
#include "analysis/pending/HostAccess.h"
#include "cuda-async-lint/Check.h"

#include <memory>

namespace cuda_async_lint {

struct ApiSpec;

class PinnedAllocInLoopCheck : public Check {
public:
  explicit PinnedAllocInLoopCheck(DiagnosticSink &Sink);
  ~PinnedAllocInLoopCheck() override;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  void resetTranslationUnit() override {
    Buffers.clear();
    Loops.clear();
    Issuers.clear();
    Parents.clear();
    Callers.clear();
  }
  /// A pinning call outside any loop of its function: reported when the
  /// function releases what it pinned before it returns, whatever the path,
  /// and is called in a loop.
  void checkPinnedPerCall(const clang::CallExpr *Call, const ApiSpec &Api,
                          const clang::FunctionDecl *Function,
                          const clang::ValueDecl *Pinned,
                          const HostAccessFinder &FunctionBuffers,
                          clang::ASTContext &Ctx);

  FunctionCache<std::unique_ptr<HostAccessFinder>> Buffers;
  BodyParents Parents;
  /// Which functions of the unit issue copies.
  CopyIssuers Issuers;
  LoopCalls Callers{Parents};
  class LoopWork;
  /// What each loop (or function body) does, by the statement.
  llvm::DenseMap<const clang::Stmt *, std::unique_ptr<LoopWork>> Loops;
  const LoopWork &work(const clang::Stmt *S,
                       const HostAccessFinder &FunctionBuffers);
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_PINNEDALLOCINLOOPCHECK_H
