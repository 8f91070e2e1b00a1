//===- LoopCounters.h - Counters that start at 0 ----------------*- C++ -*-===//
//
// Loop counters: local integers set to 0 and only ever incremented, so
// that a test such as 'i > 0' says whether the loop went round before.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCOUNTERS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCOUNTERS_H

#include "clang/AST/RecursiveASTVisitor.h"
#include <optional>
#include <set>
#include <utility>

namespace cuda_async_lint {

/// What a condition on a loop counter (0 at the start, only incremented)
/// says on each disjunct.
enum class CounterTest {
  /// 'i > 0', 'i != 0', 'i >= 1', 'i': true exactly once incremented.
  TrueIffAdvanced,
  /// 'i == 0', '!i', 'i < 1', 'i <= 0': false exactly once incremented.
  FalseIffAdvanced,
  /// 'i < K', 'i != K', 'i <= K' for a constant K > 0: true at the start
  /// (a loop with a constant bound runs at least once), either way after.
  TrueAtStart,
};

/// The loop counter \p Cond tests, and how.
std::optional<std::pair<const clang::VarDecl *, CounterTest>>
counterCondition(const clang::Expr *Cond, const clang::ASTContext &Ctx);

/// Loop counters: local integers set to 0 and otherwise only incremented,
/// so that 'i > 0' holds exactly once they were incremented, and that some
/// condition tests that way.
class CounterFinder : public clang::RecursiveASTVisitor<CounterFinder> {
public:
  std::set<const clang::VarDecl *> Counters;
  explicit CounterFinder(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitIfStmt(clang::IfStmt *S) { return tested(S->getCond()); }
  bool VisitForStmt(clang::ForStmt *S) { return tested(S->getCond()); }
  bool VisitWhileStmt(clang::WhileStmt *S) { return tested(S->getCond()); }
  bool VisitConditionalOperator(clang::ConditionalOperator *CO);

  bool VisitVarDecl(clang::VarDecl *VD);
  bool VisitBinaryOperator(clang::BinaryOperator *BO);
  bool VisitUnaryOperator(clang::UnaryOperator *UO);
  /// Once the body is traversed: Counters are the candidates nothing else
  /// writes and some condition tests.
  void finish();

private:
  static bool isZero(const clang::Expr *E);
  static bool isPositive(const clang::Expr *E);
  bool tested(const clang::Expr *Cond);

  const clang::ASTContext &Ctx;
  std::set<const clang::VarDecl *> Candidates, Other, Tested;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCOUNTERS_H
