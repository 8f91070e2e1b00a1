#include "../src/pool.h"

void release(Pool &P, float *Dev, cudaStream_t S) {
  float *Pinned = static_cast<float *>(P.allocPinned(4096));
  cudaMemcpyAsync(Dev, Pinned, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Pinned);
  float *Large = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Large, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Large);
}
