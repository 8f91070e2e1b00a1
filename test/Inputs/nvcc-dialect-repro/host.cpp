// A C++ file: nvcc defines __NVCC__ and its version for it too, and none of
// the macros of its flags; g++ defines none of them.
#include <cstdlib>
#include <cuda_runtime.h>
#ifdef EXPECT_NVCC
#if !defined(__NVCC__) || !defined(__CUDACC_VER_MAJOR__)
#error "nvcc's macros are not defined for a C++ file nvcc compiles"
#endif
#if defined(__CUDACC_RDC__) || defined(__CUDACC_EXTENDED_LAMBDA__) ||          \
    defined(__CUDACC__)
#error "nvcc defines these for CUDA files only"
#endif
#elif defined(__NVCC__) || defined(__CUDACC_VER_MAJOR__)
#error "nvcc's macros are defined for a file g++ compiles"
#endif
void upload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}
