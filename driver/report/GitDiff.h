//===- GitDiff.h - The lines changed since a git revision -------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_GITDIFF_H
#define CUDA_ASYNC_LINT_DRIVER_GITDIFF_H

#include "LineFilter.h"
#include "llvm/Support/Error.h"

namespace cuda_async_lint {

/// The lines added or changed in the work tree that holds \p Directory since
/// \p Ref (`git diff -U0 REF`: committed, staged and unstaged changes), as
/// a line filter. An error names git's complaint (not a work tree, an
/// unknown revision, no git).
llvm::Expected<LineFilter> changedLinesSince(llvm::StringRef Ref,
                                             llvm::StringRef Directory);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_GITDIFF_H
