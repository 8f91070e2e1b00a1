// What nvcc's host pass sees and clang's CUDA mode does not by default.
#ifdef WITH_CCCL
// CUDA 13 keeps these under include/cccl, which nvcc adds implicitly.
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/std/type_traits>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#endif
#include <cstdlib>

__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }

int blocksFor(int cores, unsigned sms, long n, float share) {
  // nvcc declares min/max __host__ __device__ for every integer and
  // floating pair; clang's headers only for device code.
  float f = max(share, 32.0f / cores);
  unsigned u = min(cores, sms);
  long l = max(n, 1L);
  double d = min(1.0, f);
  return (int)(f + u + l + d);
}

void upload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(256 * sizeof(float));
  cudaMemcpyAsync(d, h, 256 * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
  free(h);
}

// nvcc defines __CUDACC__ as 1, and headers test its value (CUDA 13's
// nccl_device/utility.h: '#if __CUDACC__').
#if defined(__CUDACC__) && __CUDACC__ != 1
#error "__CUDACC__ is not nvcc's 1"
#endif
#ifdef WITH_CCCL
#include <nccl.h>
#endif

// nvcc takes a braced grid or block size as a dim3; the finding after the
// launch on its line keeps its column.
void braced(float *d, cudaStream_t s) {
  float *h = (float *)malloc(256 * sizeof(float));
  scale<<<{1}, {16, 16, 1}, 0, s>>>(d); cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  free(h);
}

// nvcc declares isfinite, isnan, isinf and signbit __host__ __device__ in
// the global namespace: host code calls them without <math.h>.
bool usable(float f, double d) {
  return isfinite(f) && !isnan(d) && !isinf(f) && !signbit(d);
}

// nvcc's cuda_runtime.h includes <time.h>, <string.h>, <stdio.h>,
// <stdlib.h> and <assert.h> for host code.
double elapsed() {
  clock_t start = clock();
  return (double)(clock() - start) / CLOCKS_PER_SEC;
}

// nvcc (GCC's lexer) reads 'extern "C"__global__' as two tokens, with a
// warning; C++11 would lex a user-defined literal.
extern "C"__global__ void glued(float *x) { x[0] = 0.0f; }

// A formatter that does not know CUDA spaces a launch's chevrons; nvcc
// reads them. The finding after the launch on its line keeps its column.
void spaced(float *d, cudaStream_t s) {
  float *h = (float *)malloc(256 * sizeof(float));
  scale << < 1, 256, 0, s >> > (d); cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  free(h);
}

// nvcc declares the cache-hinted loads and stores of sm_32_intrinsics.h;
// clang's CUDA headers lack __ldca, __ldlu, __stcg, __stcs and __stwb.
__device__ void hinted(unsigned char *digest, float *score, long *n) {
  __stcg(digest, (unsigned char)1);
  __stcs(score, __ldca(score) + __ldlu(score));
  __stwb(n, 2L);
#ifdef __VECTOR_TYPES_H__
  float4 *v = (float4 *)score;
  __stcg(v, __ldlu(v));
#endif
}
