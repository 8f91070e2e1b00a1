#include "staging.h"

void stage(float *d_in, cudaStream_t stream) {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(d_in, h, 1024, cudaMemcpyHostToDevice, stream);
  cudaStreamSynchronize(stream);
  cudaFreeHost(h);
}
