//===- TraversalScope.h - What of a unit the checks walk --------*- C++ -*-===//
//
// The checks' matchers and the indexes built for them (HostFunctions, the
// provenance sites, the streams a unit creates) walk the ASTContext's
// traversal scope. Two kinds of declarations can be left out of it:
// - those of system headers, as clangd and clang-tidy 21+ do (the C++
//   library's and the CUDA toolkit's declarations touch only their own
//   types and variables), unless findings there are asked for;
// - device-only functions (kernels, __device__ functions that are not also
//   __host__) and templates of them: they run on the GPU, where no CUDA
//   runtime call of the host is made and host memory is not touched, so no
//   host transfer, release or synchronization can lie in them. In a unit of
//   kernels their bodies and instantiations are most of the AST: walking
//   them cost more than every check's analysis (ggml's mmvq.cu).
// A __host__ __device__ function, a lambda and anything else stays.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_CODE_TRAVERSALSCOPE_H
#define CUDA_ASYNC_LINT_ANALYSIS_CODE_TRAVERSALSCOPE_H

#include "clang/AST/ASTContext.h"
#include <vector>

namespace cuda_async_lint {

/// The top-level declarations of \p Ctx's unit the checks walk, namespaces
/// and extern "C" blocks opened into their members: all but device-only
/// functions, and but system headers' declarations unless
/// \p SystemHeaders.
std::vector<clang::Decl *> hostTraversalScope(clang::ASTContext &Ctx,
                                              bool SystemHeaders);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_CODE_TRAVERSALSCOPE_H
