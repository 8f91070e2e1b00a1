//===- DeviceCodeErrors.h - Errors that leave the host code whole -*- C++
//-*-===//
//
// clang is stricter than nvcc inside device code: it rejects initializers of
// __shared__ variables, some host calls from __global__ functions, dependent
// names without 'template', and more that nvcc accepts. The checks analyse
// host code only, and an error inside the body of a device-only function
// (__global__, or __device__ without __host__) leaves every host function's
// AST intact. Such a file is analysed, and its device code errors are
// reported beside the findings instead of failing the file.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_DEVICECODEERRORS_H
#define CUDA_ASYNC_LINT_DRIVER_DEVICECODEERRORS_H

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace cuda_async_lint {

/// True if every location of \p Errors lies inside the definition of a
/// device-only function of \p Ctx's translation unit (a lambda's, too). An
/// error without a location ("too many errors emitted") is never inside one.
bool onlyInDeviceCode(const std::vector<clang::SourceLocation> &Errors,
                      clang::ASTContext &Ctx);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_DEVICECODEERRORS_H
