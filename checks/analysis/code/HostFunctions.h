//===- HostFunctions.h - Which host function holds a call -------*- C++ -*-===//
//
// Every check asks of the call it matched "which function is it in?", and
// analyses host functions only. clang's forFunction matcher answers through
// the AST's parent map, which its first use builds for the whole translation
// unit: every node of every kernel and of every template instantiated for
// device code. In a file of kernels that costs more than the checks. This
// index walks host code alone (not __global__ functions, not __device__
// functions that are not also __host__: their bodies are device code however
// clang's host pass parses them) and records, for each call and delete
// expression, the function or lambda whose body holds it.
//
// One index per translation unit, shared by the checks, built on the first
// question and freed with the ASTContext.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_HOSTFUNCTIONS_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_HOSTFUNCTIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"

namespace cuda_async_lint {

class HostFunctions {
public:
  /// The index of the translation unit of \p Ctx.
  static const HostFunctions &of(clang::ASTContext &Ctx);

  /// The host function (or lambda call operator) whose body holds the call
  /// or delete expression \p S; null if device code or no function does.
  const clang::FunctionDecl *enclosing(const clang::Stmt *S) const {
    return Enclosing.lookup(S);
  }

  /// Calls \p F with each call of host code and its enclosing function, in
  /// no particular order.
  template <typename Fn> void forEachCall(Fn F) const {
    for (const auto &[S, FD] : Enclosing)
      if (const auto *Call = llvm::dyn_cast<clang::CallExpr>(S))
        F(Call, FD);
  }

  explicit HostFunctions(clang::ASTContext &Ctx);

private:
  llvm::DenseMap<const clang::Stmt *, const clang::FunctionDecl *> Enclosing;
};

/// Matches a call or delete expression in host code whose enclosing host
/// function (HostFunctions) \p Function matches: forFunction for host code,
/// without the parent map.
clang::ast_matchers::internal::Matcher<clang::Stmt> inHostFunction(
    clang::ast_matchers::internal::Matcher<clang::FunctionDecl> Function);

/// Matches, in host code, a call (bound to "call") of a function of the
/// user's code (bound to "helper"; not an operator, not in a system
/// header), its enclosing host function bound to "function": the calls
/// that hand arguments to a helper whose summary a check asks.
clang::ast_matchers::StatementMatcher callOfUserFunction();

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_HOSTFUNCTIONS_H
