//===- CallsThatIssue.h - Calls that leave work in flight -------*- C++ -*-===//
//
// A function of the unit that issues work and returns before it is done
// ('void driver(ctx) { for (b...) { copyAsync(ctx->s[b]); launch(ctx->s[b]);
// copyAsync(ctx->s[b]); } }') is itself work for its caller: a loop over
// devices that calls it and then waits for the device waits for that
// iteration's work, as if the loop had issued it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATISSUE_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATISSUE_H

#include "api/AsyncOperation.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace cuda_async_lint {

/// The work \p Call leaves in flight, as its caller sees it, where its
/// callee is a function of the unit with a body (not a CUDA call) that
/// issues work directly and, in the order its body is written, no wait
/// after it covers it: one operation, the call itself, on the stream of
/// the first such work. That stream is the caller's argument where the
/// callee issued on a stream parameter; otherwise it is the callee's own
/// expression, which only a device synchronization of the caller's covers.
std::optional<AsyncOperation> workLeftInFlight(const clang::CallExpr *Call,
                                               const clang::ASTContext &Ctx);

/// The argument of \p Call that is the stream of its work left in flight
/// (\p Work, workLeftInFlight's answer), where the callee issued it on a
/// stream parameter; null otherwise.
const clang::Expr *streamArgumentOf(const clang::CallExpr *Call,
                                    const std::optional<AsyncOperation> &Work);

/// workLeftInFlight, each call asked once.
class CallsThatIssue {
public:
  explicit CallsThatIssue(const clang::ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<AsyncOperation> work(const clang::CallExpr *Call) const;

private:
  const clang::ASTContext &Ctx;
  mutable llvm::DenseMap<const clang::CallExpr *, std::optional<AsyncOperation>>
      Done;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_CALLSTHATISSUE_H
