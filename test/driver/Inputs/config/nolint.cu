#include <cstdlib>
#include <cuda_runtime.h>

// NOLINTBEGIN(cuda-async-pageable-copy)
void unmatched(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Host);
}

void stray(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Host);
}
