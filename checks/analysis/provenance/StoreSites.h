//===- StoreSites.h - Where a unit stores and registers ---------*- C++ -*-===//
//
// Every place the translation unit stores into a user pointer field or a
// summarized global, registers memory, or calls a function, with the
// function that does it: the index field and global summaries and
// call-site provenance are joined over (ProvenanceAnalysis::Sites).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_STORESITES_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_STORESITES_H

#include "ProvenanceAnalysis.h"

namespace cuda_async_lint {

/// Fills \p Out with the sites of the translation unit of \p Ctx.
void findStoreSites(clang::ASTContext &Ctx, ProvenanceAnalysis::Sites &Out);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_STORESITES_H
