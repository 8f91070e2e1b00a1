//===- MemoryKind.h - Kinds of memory a CUDA program handles ----*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_API_MEMORYKIND_H
#define CUDA_ASYNC_LINT_API_MEMORYKIND_H

#include "llvm/ADT/StringRef.h"

namespace cuda_async_lint {

enum class MemoryKind {
  /// Ordinary host memory the OS may move: malloc, new, containers, stack and
  /// global storage. DMA engines cannot reach it directly.
  Pageable,
  /// Page-locked host memory from cudaMallocHost, cudaHostAlloc, ...
  Pinned,
  /// Pageable memory page-locked by cudaHostRegister, until unregistered.
  Registered,
  /// Unified memory from cudaMallocManaged.
  Managed,
  /// Device memory from cudaMalloc and friends.
  Device,
};

/// "pageable", "pinned", ... as the messages spell them.
llvm::StringRef memoryKindName(MemoryKind K);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_MEMORYKIND_H
