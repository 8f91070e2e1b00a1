//===- LoopCalls.h - Where a function is called in a loop -------*- C++ -*-===//
//
// A helper that pins a buffer and releases it before it returns costs a
// page-locking per call; called in a loop, per iteration (nccl-tests'
// CheckData, pinning its error counters at every check). Which loops call
// a function is asked of the unit's host code once per function: the
// calls HostFunctions indexed are sorted by callee on the first question,
// and each caller's loops found then.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCALLS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCALLS_H

#include "BodyParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace cuda_async_lint {

class LoopCalls {
public:
  /// \p Parents: the caller's map of each function's statements, shared.
  explicit LoopCalls(BodyParents &Parents) : Parents(Parents) {}

  /// A call written inside a loop that repeats (Loops.h's enclosingLoop),
  /// in a host function of the user's code.
  struct InLoop {
    const clang::CallExpr *Call;
    const clang::FunctionDecl *Caller;
    const clang::Stmt *Loop;
  };
  /// The calls of \p Callee inside loops, in source order. Calls through
  /// pointers and virtual calls are not known.
  const std::vector<InLoop> &callsInLoops(const clang::FunctionDecl *Callee,
                                          clang::ASTContext &Ctx);
  void clear() {
    Calls.clear();
    Gathered = false;
    Answers.clear();
  }

private:
  /// Each direct call in the user's host code and the function that makes
  /// it, by the callee's canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<std::pair<const clang::CallExpr *,
                                       const clang::FunctionDecl *>>>
      Calls;
  bool Gathered = false;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<InLoop>> Answers;
  BodyParents &Parents;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPCALLS_H
