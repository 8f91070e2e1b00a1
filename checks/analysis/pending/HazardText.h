//===- HazardText.h - How a host access racing a copy is told ---*- C++ -*-===//
//
// The words two checks share for a host access that conflicts with a copy
// in flight: unsynchronized-access reports it; pageable-copy warns that
// pinning the buffer would create it (the access relies on the pageable
// copy being synchronous).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PENDING_HAZARDTEXT_H
#define CUDA_ASYNC_LINT_ANALYSIS_PENDING_HAZARDTEXT_H

#include "PendingTransfers.h"
#include <string>

namespace cuda_async_lint {

/// \p E as written in the source.
std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx);

/// How an access of \p Kind is said: as a verb ("is read", "is written",
/// "is released", "goes out of scope") and as a noun ("the read of", ...,
/// "the end of the lifetime of").
struct AccessWords {
  llvm::StringRef Verb, Noun;
};
AccessWords accessWords(AccessKind Kind);

/// Where \p A happens: its statement, or for the end of a lifetime the
/// closing brace of the scope.
clang::SourceLocation accessLocation(const HostAccess &A);

/// The buffer \p A touches, as written ('h[0]', '*faultyHost').
std::string accessedBuffer(const HostAccess &A, const clang::ASTContext &Ctx);

/// The wait that ends \p P: 'cudaStreamSynchronize(s)',
/// 'cudaStreamSynchronize(0)' for the legacy stream (hipStreamSynchronize
/// for HIP).
std::string waitFor(const PendingTransfer &P, const clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PENDING_HAZARDTEXT_H
