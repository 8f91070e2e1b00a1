//===- ExecutionSpace.h - Host code and device code -------------*- C++ -*-===//
//
// The checks are about host code. A __global__ function, or a __device__
// function that is not also __host__, runs on the GPU only: a launch inside
// it is dynamic parallelism, not a host launch on the legacy stream, and its
// body is not host code however clang's host pass parses it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_EXECUTIONSPACE_H
#define CUDA_ASYNC_LINT_EXECUTIONSPACE_H

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

namespace cuda_async_lint {

/// True if \p FD runs on the device only.
inline bool isDeviceOnly(const clang::FunctionDecl *FD) {
  return FD->hasAttr<clang::CUDAGlobalAttr>() ||
         (FD->hasAttr<clang::CUDADeviceAttr>() &&
          !FD->hasAttr<clang::CUDAHostAttr>());
}

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_EXECUTIONSPACE_H
