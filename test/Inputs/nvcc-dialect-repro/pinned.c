/* A C file passing 'float **' where 'void **' is expected: gcc 12 warns,
   clang 22 rejects it. */
#include <cuda_runtime.h>
#include <stdlib.h>
void stage(cudaStream_t s) {
  float *p;
  float *d;
  float *h = (float *)malloc(64);
  cudaMallocHost((float **)&p, 16);
  cudaMalloc(&d, 16);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}
