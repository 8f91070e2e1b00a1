//===- ExclusiveBranches.h - Statements no pass runs both of ----*- C++ -*-===//
//
// One pass over a loop's body runs the first iteration's setup or a later
// iteration's reload, not both: TIGRE's TV proximal operator loads its
// buffers 'if (i == 0)' and reloads them 'if (splits > 1 & i > 0)'. Two
// statements are exclusive in one pass when they lie in the two arms of one
// if, or under conditions that compare one integer variable with constants
// in ways no value satisfies together, the variable written nowhere in the
// body (so both conditions read one value).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_EXCLUSIVEBRANCHES_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_EXCLUSIVEBRANCHES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <set>
#include <vector>

namespace cuda_async_lint {

class ExclusiveBranches {
public:
  /// The branches of \p Body, a loop's body or a function's.
  ExclusiveBranches(const clang::Stmt *Body, const clang::ASTContext &Ctx);

  /// Whether no single pass over the body runs both \p A and \p B.
  bool exclusive(const clang::Stmt *A, const clang::Stmt *B) const;

private:
  const clang::ASTContext &Ctx;
  std::vector<const clang::IfStmt *> Ifs;
  /// Variables the body assigns, increments or takes the address of.
  std::set<const clang::VarDecl *> Written;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_EXCLUSIVEBRANCHES_H
