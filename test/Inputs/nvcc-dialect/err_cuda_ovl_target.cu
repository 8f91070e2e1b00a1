/* err_cuda_ovl_target: a host member function defined __host__ __device__. clang 22 makes it an error; nvcc 13 merges them (warning #20040-D). */
#include <cuda_runtime.h>
#include <cstdlib>
struct Staging {
  void upload(float *d, cudaStream_t s);
};
__host__ __device__ void Staging::upload(float *d, cudaStream_t s) {
#ifndef __CUDA_ARCH__
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* a finding in the body */
#endif
}
void run(cudaStream_t s) {
  Staging staging;
  staging.upload(0, s);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  staging.upload(undeclared_variable, s);
#endif
}
