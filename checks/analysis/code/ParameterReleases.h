//===- ParameterReleases.h - Helpers releasing arguments --------*- C++ -*-===//
//
// A function of the translation unit that releases what a pointer
// parameter points to ('void cleanup(char *text, ...) { free(text); }').
// Where it has external linkage, the analysis cannot say at the release
// what the memory is; each call that hands it memory of another kind is
// where the mismatch happens.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERRELEASES_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERRELEASES_H

#include "api/ReleaseSite.h"
#include "clang/AST/Decl.h"
#include <vector>

namespace cuda_async_lint {

/// A release in a function's body of what parameter Param points to (the
/// parameter itself, under casts, or a local pointer initialized from it
/// and never reassigned).
struct ParameterRelease {
  unsigned Param;
  ReleaseSite Site;
};

/// The releases of \p FD's pointer parameters that run on every call: in
/// its own body, not under a branch, a loop or a lambda.
std::vector<ParameterRelease> parameterReleases(const clang::FunctionDecl *FD);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_PARAMETERRELEASES_H
