//===- NvccAcceptedErrors.h - Errors that leave the host code whole -*- C++
//-*-//
//
// clang is stricter than nvcc in two places that leave the host AST whole:
// - inside device code: it rejects initializers of __shared__ variables,
//   some host calls from __global__ functions, dependent names without
//   'template', and more. The checks analyse host code only, and an error
//   inside the body of a device-only function (__global__, or __device__
//   without __host__) leaves every host function's AST intact.
// - GCC extensions in host code that nvcc's host compiler accepts and clang
//   rejects with the rest of the function intact: an initialized
//   variable-length array (`T a[n] = {0};`) stays declared, its uses kept.
// Such a file is analysed, and these errors are reported beside the findings
// instead of failing the file.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H
#define CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace cuda_async_lint {

/// True if clang's error \p DiagID stands for a GCC extension of host code
/// that nvcc's host compiler accepts and that leaves the declaration and its
/// uses in the AST.
bool isHostDialectError(unsigned DiagID);

/// True if each error (\p Locations and \p IDs in step) is one nvcc accepts:
/// a host dialect error, or one located inside the definition of a
/// device-only function of \p Ctx's translation unit (a lambda's, too). An
/// error without a location ("too many errors emitted") is never accepted.
bool onlyErrorsNvccAccepts(const std::vector<clang::SourceLocation> &Locations,
                           const std::vector<unsigned> &IDs,
                           clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_NVCCACCEPTEDERRORS_H
