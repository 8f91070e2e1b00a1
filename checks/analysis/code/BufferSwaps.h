//===- BufferSwaps.h - Pointers a block exchanges ---------------*- C++ -*-===//
//
// Time stepping and double buffering exchange two buffers at the end of a
// step: 'tmp = a; a = b; b = tmp;' or 'std::swap(a, b)'. What the next step
// reads through one of them is what this step wrote through the other.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_BUFFERSWAPS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_BUFFERSWAPS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <utility>
#include <vector>

namespace cuda_async_lint {

using SwappedPair = std::pair<const clang::VarDecl *, const clang::VarDecl *>;

/// The pairs of variables (by baseVariable: 'd_u1[i]' is 'd_u1') whose
/// values \p Body exchanges, at any depth.
std::vector<SwappedPair> swappedVariables(const clang::Stmt *Body);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_BUFFERSWAPS_H
