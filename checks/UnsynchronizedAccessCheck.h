//===- UnsynchronizedAccessCheck.h - cuda-async-unsynchronized-access -----===//
//
// The host touches a buffer while an async copy on it may still be in
// flight: reads or writes a device-to-host destination, writes or releases a
// host-to-device source, or lets a local buffer's storage die, before a
// synchronization covering the copy's stream on every path. "Async
// operations ... return before the work is complete": until the stream is
// synchronized, the device may still be reading or writing the buffer, and
// the host sees stale data or corrupts the copy. A member function that
// leaves a transfer on a buffer member in flight, and one that touches the
// member, called in turn on one object, are such a pair too.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_UNSYNCHRONIZEDACCESSCHECK_H
#define CUDA_ASYNC_LINT_UNSYNCHRONIZEDACCESSCHECK_H

#include "ProvenanceCheck.h"
#include "analysis/pending/PendingTransfers.h"
#include <set>

namespace cuda_async_lint {

class UnsynchronizedAccessCheck : public ProvenanceCheck {
public:
  explicit UnsynchronizedAccessCheck(DiagnosticSink &Sink);
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  void resetTranslationUnit() override;
  void report(const TransferHazard &H, const clang::FunctionDecl *Function,
              clang::ASTContext &Ctx);
  void reportRequest(const TransferHazard &H,
                     const clang::FunctionDecl *Function,
                     clang::ASTContext &Ctx);
  /// A member function that returns with a transfer still in flight on a
  /// buffer member: its callers are analysed too.
  bool leavesTransfers(const clang::CXXMethodDecl *Method,
                       clang::ASTContext &Ctx);

  std::shared_ptr<SyncSummaries> Syncs;
  std::set<const clang::FunctionDecl *> Analysed;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_UNSYNCHRONIZEDACCESSCHECK_H
