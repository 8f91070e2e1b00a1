//===- LastIteration.h - Statements only a loop's last pass runs -*- C++
//-*-===//
//
// A statement under 'if (i == n - 1)' in 'for (int i = 0; i < n; ++i)'
// runs in the loop's last iteration only: no later iteration follows it,
// so a wait there holds none back. HybridSort's batch loops download and
// wait for the last batch under 's == 1 && i == (number_of_batches / 2) -
// 1', in the last pass of both loops.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LASTITERATION_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LASTITERATION_H

#include "BodyParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <map>
#include <memory>

namespace cuda_async_lint {

/// Whether statements run only in the last iteration of a loop, with what
/// is learnt of each loop kept: a loop's counter and bound are read once,
/// however many statements of its body are asked about.
class LastIterations {
public:
  explicit LastIterations(const clang::ASTContext &Ctx);
  ~LastIterations();

  /// Whether \p S (in the body of \p FD) runs only in the last iteration
  /// of \p Loop: in the then-branch of an if of the loop's body whose
  /// condition, or a conjunct of it, compares the loop's counter with the
  /// last value the loop gives it. The loop is 'for (V = 0; V < B; ++V)'
  /// (or 'V++', 'V += 1'; 'V <= B' too), V written nowhere in its body; the
  /// last value is written 'B - 1' (B spelled alike), or is a constant when
  /// B is.
  bool runsOnlyInLastIteration(const clang::Stmt *S, const clang::Stmt *Loop,
                               const clang::FunctionDecl *FD,
                               BodyParents &Parents);

  /// A loop's counter and bound (LastIteration.cpp).
  struct CountingLoop;

private:
  const CountingLoop *countingLoop(const clang::Stmt *Loop);

  const clang::ASTContext &Ctx;
  std::map<const clang::Stmt *, std::unique_ptr<CountingLoop>> Loops;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LASTITERATION_H
