//===- NullTests.h - Branches on whether a pointer is null ------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_NULLTESTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_NULLTESTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>

namespace cuda_async_lint {

/// A branch condition that tests a pointer for null: '!p', 'p == NULL',
/// 'NULL != p', 'p'; the successor on which it is null.
struct NullTest {
  const clang::Expr *Pointer;
  unsigned NullEdge;
};

std::optional<NullTest> nullTest(const clang::Expr *Cond,
                                 clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif
