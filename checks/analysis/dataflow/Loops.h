//===- Loops.h - The loop structure host code runs in -----------*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPS_H

#include "BodyParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

namespace cuda_async_lint {

/// The innermost loop (for, while, do, range-based for) around \p S in the
/// body of \p FD, the function (or lambda call operator) that holds it, or
/// null. A 'do { ... } while (0)', the body of many macros, runs once and is
/// no loop. Lambdas and blocks are functions of their own: a loop outside
/// one does not count.
const clang::Stmt *enclosingLoop(const clang::Stmt *S,
                                 const clang::FunctionDecl *FD,
                                 BodyParents &Parents, clang::ASTContext &Ctx);

/// Whether \p S is a loop whose body may run more than once: a for, while or
/// range-based for, or a do whose condition is not the constant false.
bool isRepeatingLoop(const clang::Stmt *S, clang::ASTContext &Ctx);

/// The body of loop \p Loop.
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// The condition of a for, while or do loop; null for a range-based for or
/// a for without one.
const clang::Expr *loopCondition(const clang::Stmt *Loop);

/// Whether \p E uses a variable that \p Loop declares or changes in its
/// header (a for loop's init and increment), or a range-based for loop's
/// variable: it names another object, stream or branch in each iteration.
bool usesLoopCounter(const clang::Stmt *E, const clang::Stmt *Loop);

/// Whether \p Inner is written inside \p Outer (a loop, its body): their
/// source ranges, where macros expand.
bool isWrittenWithin(const clang::Stmt *Inner, const clang::Stmt *Outer,
                     const clang::SourceManager &SM);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_LOOPS_H
