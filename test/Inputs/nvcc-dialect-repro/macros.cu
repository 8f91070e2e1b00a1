// What nvcc defines for the code it compiles (docs/nvcc-dialect.md, "What
// nvcc defines"): an error names each macro the tool's host view lacks.
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#ifndef __NVCC__
#error "__NVCC__ is not defined"
#endif
#if !defined(__CUDACC_VER_MAJOR__) ||                                          \
    __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION
#error "__CUDACC_VER_MAJOR__ and __CUDACC_VER_MINOR__ are not the toolkit's"
#endif
#if __CUDA_API_VER_MAJOR__ != __CUDACC_VER_MAJOR__ ||                          \
    __CUDA_API_VER_MINOR__ != __CUDACC_VER_MINOR__
#error "__CUDA_API_VER_MAJOR__ and __CUDA_API_VER_MINOR__"
#endif
#if __NVCC_DIAG_PRAGMA_SUPPORT__ != 1 || __CUDACC_DEVICE_ATOMIC_BUILTINS__ != 1
#error "__NVCC_DIAG_PRAGMA_SUPPORT__ and __CUDACC_DEVICE_ATOMIC_BUILTINS__"
#endif
#if __CUDACC__ != 1
#error "__CUDACC__ is not nvcc's 1"
#endif
// nvcc -rdc=true --extended-lambda --expt-relaxed-constexpr -G
#ifdef EXPECT_FLAGS
#if !defined(__CUDACC_RDC__) || !defined(__CUDACC_EXTENDED_LAMBDA__) ||        \
    !defined(__CUDACC_RELAXED_CONSTEXPR__) || !defined(__CUDACC_DEBUG__)
#error "the macros of nvcc's flags are not defined"
#endif
#else
#if defined(__CUDACC_RDC__) || defined(__CUDACC_EXTENDED_LAMBDA__) ||          \
    defined(__CUDACC_RELAXED_CONSTEXPR__) || defined(__CUDACC_DEBUG__)
#error "a macro of a flag nvcc was not given is defined"
#endif
#endif
// With the toolkit: CUDA 13's libraries parse with nvcc's macros, extended
// lambdas included (libcu++ asks nvcc's front end of their closures).
#ifdef WITH_LIBRARIES
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <cuda/atomic>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cufft.h>
#include <curand_kernel.h>
#include <nccl.h>
#include <thrust/device_vector.h>
#include <thrust/transform.h>
void doubled(thrust::device_vector<float> &v) {
  thrust::transform(v.begin(), v.end(), v.begin(),
                    [] __host__ __device__(float x) { return 2 * x; });
}
#endif
void upload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}
