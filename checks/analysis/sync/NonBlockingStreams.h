//===- NonBlockingStreams.h - Streams that skip the legacy stream -*- C++
//-*-===//
//
// "cudaStreamNonBlocking: work running in the created stream may run
// concurrently with work in stream 0 (the NULL stream), and the created
// stream should perform no implicit synchronization with stream 0." The
// legacy stream's syncs, events and blocking copies do not wait for such a
// stream, nor does its work wait for them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SYNC_NONBLOCKINGSTREAMS_H
#define CUDA_ASYNC_LINT_ANALYSIS_SYNC_NONBLOCKINGSTREAMS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <set>

namespace cuda_async_lint {

/// The streams (variables, fields, arrays) \p FD creates with the
/// cudaStreamNonBlocking flag.
std::set<const clang::ValueDecl *>
nonBlockingStreams(const clang::FunctionDecl *FD, const clang::ASTContext &Ctx);

/// The streams (variables, fields, arrays) the translation unit creates,
/// each of its creations without cudaStreamNonBlocking: the legacy stream's
/// blocking calls wait for them. A stream created elsewhere (another unit,
/// a caller's argument) or with flags not known here may not be one.
class StreamCreations {
public:
  /// Scans the program's code of \p Ctx's translation unit (not system
  /// headers) once.
  explicit StreamCreations(const clang::ASTContext &Ctx);
  bool isBlocking(const clang::ValueDecl *D) const {
    return D && Blocking.count(D);
  }
  /// Whether a creation of \p D anywhere in the unit passes
  /// cudaStreamNonBlocking (a global vector of streams created so in an
  /// initialization function).
  bool isNonBlocking(const clang::ValueDecl *D) const {
    return D && NonBlocking.count(D);
  }

private:
  std::set<const clang::ValueDecl *> Blocking;
  std::set<const clang::ValueDecl *> NonBlocking;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SYNC_NONBLOCKINGSTREAMS_H
