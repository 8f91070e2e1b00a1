//===- PageableCopyCheck.h - cuda-async-pageable-copy -----------*- C++ -*-===//
//
// An async copy whose host side is pageable memory. For the asynchronous
// copies the CUDA runtime says "for transfers between device memory and
// pageable host memory, the function might be synchronous with respect to
// host" and the driver "may synchronize with the stream and stage the copy
// into pinned memory" (API synchronization behavior); measured on H100 and
// H200 (cuda-async-verify), such copies do not overlap with other work.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_PAGEABLECOPYCHECK_H
#define CUDA_ASYNC_LINT_PAGEABLECOPYCHECK_H

#include "ProvenanceCheck.h"
#include "analysis/code/FunctionCache.h"
#include "analysis/code/ParameterCopies.h"
#include "analysis/pending/PendingTransfers.h"
#include <memory>
#include <vector>

namespace cuda_async_lint {

class PageableCopyCheck : public ProvenanceCheck {
public:
  PageableCopyCheck(DiagnosticSink &Sink, const CheckOptions &Options);
  void storeOptions(StoreOption Store) const override;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;
  void resetTranslationUnit() override {
    ProvenanceCheck::resetTranslationUnit();
    HelperCopies.clear();
    IfPinned.clear();
    Syncs.reset();
  }

private:
  /// The first host access of \p Copy's host side (its destination if
  /// \p IntoHost) before any wait, were the copy asynchronous: one that
  /// relies on the pageable copy being synchronous.
  const TransferHazard *
  reliesOnSynchronousCopy(const clang::FunctionDecl *Function,
                          const clang::CallExpr *Copy, bool IntoHost,
                          clang::ASTContext &Ctx);
  /// Copies of fewer bytes (by a constant byte count) are not reported.
  void checkHelperCall(const clang::CallExpr *Call,
                       const clang::FunctionDecl *Helper,
                       const clang::FunctionDecl *Function,
                       clang::ASTContext &Ctx);
  uint64_t MinCopySize;
  /// What each function of the unit copies of its parameters: every call
  /// of a helper asks.
  FunctionCache<std::vector<ParameterCopy>> HelperCopies;
  /// Per function, what would race were its pageable copies pinned: advice
  /// to pin a buffer that is read (or written) right after its copy must
  /// say to wait first.
  FunctionCache<std::vector<TransferHazard>> IfPinned;
  std::shared_ptr<SyncSummaries> Syncs;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_PAGEABLECOPYCHECK_H
