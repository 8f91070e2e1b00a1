//===- EveryCallCode.h - What a function does on every call -----*- C++ -*-===//
//
// The summaries of what a function of the unit does to its parameters
// (ParameterCopies, ParameterReleases) count only what it does whenever it
// is called: the statements of its definition outside branches, where a
// caller's argument meets them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_EVERYCALLCODE_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_EVERYCALLCODE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace cuda_async_lint {

/// The definition of \p FD in the user's code (not a system header), with
/// its body; null for a declaration only or a template's pattern.
const clang::FunctionDecl *userDefinition(const clang::FunctionDecl *FD);

/// Calls \p F with each statement under \p S that runs whenever \p S does:
/// not under a branch (an if's arms, a switch, '?:'), a try or a lambda. An
/// if's condition runs ('if (cudaMemcpyAsync(...) != cudaSuccess)', the
/// shape of error-check macros). With \p IntoLoops a loop's body counts (it
/// runs whenever the loop does, once per element); without, only a macro's
/// 'do { } while (0)' body does.
void forEachStmtOnEveryCall(const clang::Stmt *S, const clang::ASTContext &Ctx,
                            bool IntoLoops,
                            llvm::function_ref<void(const clang::Stmt *)> F);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_EVERYCALLCODE_H
