/*===- hip/hip_runtime.h - cuda-async-lint's bundled HIP runtime ----------===*
 *
 * The runtime API (hip_runtime_api.h) and what kernels and their launches
 * use: the built-in index variables and hipLaunchKernelGGL, which ROCm
 * defines as a macro over <<<...>>>. Declarations only.
 *
 *===----------------------------------------------------------------------===*/

#ifndef CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_H
#define CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_H

#include <hip/hip_runtime_api.h>

#if defined(__cplusplus) && defined(__HIP__)
struct __cuda_async_lint_hip_index {
  uint32_t x, y, z;
};
extern const __device__ __cuda_async_lint_hip_index threadIdx, blockIdx,
    blockDim, gridDim;
static constexpr int warpSize = 64;
__device__ void __syncthreads(void);
__device__ void __threadfence(void);

#define hipLaunchKernelGGLInternal(kernelName, numBlocks, numThreads,          \
                                   memPerBlock, streamId, ...)                 \
  do {                                                                         \
    kernelName<<<(numBlocks), (numThreads), (memPerBlock), (streamId)>>>(      \
        __VA_ARGS__);                                                          \
  } while (0)
#define hipLaunchKernelGGL(kernelName, ...)                                    \
  hipLaunchKernelGGLInternal((kernelName), __VA_ARGS__)
#endif

#endif /* CUDA_ASYNC_LINT_BUNDLED_HIP_RUNTIME_H */
