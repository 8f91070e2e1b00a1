// What nvcc compiles and clang 22 rejects, from the issue: each construct
// is read as nvcc reads it, and the findings after each are reported.
#include <cuda_runtime.h>
#include <cstdlib>
__global__ void k(float *x) {}
struct A {
  void f(float *d, cudaStream_t s);
};
// nvcc merges the declarations into a __host__ __device__ function.
__host__ __device__ void A::f(float *d, cudaStream_t s) {
#ifndef __CUDA_ARCH__
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
#endif
}
// A primary template defined with its own parameters as arguments.
template <typename T> void tf(T *d, cudaStream_t s);
template <typename T> void tf<T>(T *d, cudaStream_t s) {
  T *h = (T *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}
// A formatter's spaced launch chevrons.
void launch(float *d, cudaStream_t s) {
  k << < 1, 1, 0, s >> > (d); float *h = (float *)malloc(64); cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  tf(d, s);
}
// nvcc defines __NVCC__ (and its version) for the code it compiles.
#ifdef __NVCC__
void onlyNvcc(float *d, cudaStream_t s);
#endif
#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 11
#error "nvcc's version is not defined"
#endif
void useIt(float *d, cudaStream_t s) { onlyNvcc(d, s); }
#ifdef GENUINE_ERROR
void broken() { undeclared(); }
#endif
