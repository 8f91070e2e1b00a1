//===- BodyParents.h - The statement that holds a statement -----*- C++ -*-===//
//
// The checks walk up from a call to its loop, its block or the arms of an
// if. ASTContext::getParents answers through the parent map of the whole
// translation unit, which its first use builds: every node of the user
// code's headers and their template instantiations, device code included
// (about 100 ms of a 2 s parse on a unit of ggml's, more than the checks
// that asked). What they ask lies within one function: clang::ParentMap maps
// one statement tree, built for a function's body on its first question.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BODYPARENTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BODYPARENTS_H

#include "analysis/code/FunctionCache.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ParentMap.h"
#include <memory>

namespace cuda_async_lint {

class BodyParents {
public:
  /// The statement that directly holds \p S in the body of \p FD (a
  /// function, or a lambda's call operator); null for the body itself and
  /// for a statement outside it.
  const clang::Stmt *parent(const clang::FunctionDecl *FD,
                            const clang::Stmt *S);
  /// Drops every map: with the translation unit.
  void clear() { Maps.clear(); }

private:
  FunctionCache<std::unique_ptr<clang::ParentMap>> Maps;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BODYPARENTS_H
