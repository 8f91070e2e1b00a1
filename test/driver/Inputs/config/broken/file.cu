#include <cstdlib>
#include <cuda_runtime.h>

void warnings(float *Dev, cudaStream_t S) {
  float *Large = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Large, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Large);
}
