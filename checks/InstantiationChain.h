//===- InstantiationChain.h - What instantiated a template ------*- C++ -*-===//
//
// A check finds what it finds in a template through one of its
// instantiations. Like clang's "in instantiation of ... requested here",
// the notes of such a finding name that instantiation and, outward, each
// instantiation whose code requested it, up to code that is no template's.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_INSTANTIATIONCHAIN_H
#define CUDA_ASYNC_LINT_INSTANTIATIONCHAIN_H

#include "cuda-async-lint/Finding.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

/// The notes for \p FD, innermost first: for each instantiated function of
/// the chain, "in instantiation of 'NAME' requested here" at its point of
/// instantiation. Empty for a function that is no instantiation. The next
/// link is the instantiated function whose body, around that point, names
/// the previous one; the chain stops where none does.
std::vector<FindingNote> instantiationChain(const clang::FunctionDecl *FD,
                                            clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_INSTANTIATIONCHAIN_H
