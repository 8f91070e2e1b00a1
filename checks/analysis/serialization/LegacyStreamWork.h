//===- LegacyStreamWork.h - Work held back by the legacy stream -*- C++ -*-===//
//
// "The legacy default stream ... synchronizes with all other blocking
// streams": an operation on it waits for all earlier work and holds back all
// later work of blocking streams until it is done. It costs overlap when
// work on a created stream is issued while it may still be pending: that work
// could have run beside it. A forward dataflow over clang's CFG of the
// legacy-stream operations that may still be pending (issued, not waited
// for by the host), back edges included, finds those operations; a final
// join on the legacy stream, followed by nothing or by a wait, holds back
// nothing.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H
#define CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <map>

namespace cuda_async_lint {

class StreamCreations;
class SyncSummaries;

/// For each operation of \p FD on the legacy default stream that holds back
/// work on a created stream: the first such work (in source order). In a
/// \p PerThread build only cudaStreamLegacy, written out, is the legacy
/// stream. \p Created: the unit's stream creations (a stream created
/// cudaStreamNonBlocking anywhere in the unit is never held back).
std::map<const clang::CallExpr *, const clang::CallExpr *>
legacyWorkHoldingBack(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                      bool PerThread, SyncSummaries &Syncs,
                      const StreamCreations &Created);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_SERIALIZATION_LEGACYSTREAMWORK_H
