#include "pool.h"

void copies(Pool &P, float *Dev, cudaStream_t S) {
  float *Small = static_cast<float *>(malloc(16));
  // Below MinCopySize (64): not reported.
  cudaMemcpyAsync(Dev, Small, 16, cudaMemcpyHostToDevice, S);
  float *Large = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Large, 4096, cudaMemcpyHostToDevice, S);
  // The pool's memory is pinned: not reported.
  float *Pinned = static_cast<float *>(P.allocPinned(4096));
  cudaMemcpyAsync(Dev, Pinned, 4096, cudaMemcpyHostToDevice, S);
  P.releasePinned(Pinned);
  // The legacy default stream: cuda-async-default-stream is disabled.
  cudaMemcpyAsync(Dev, Pinned, 4096, cudaMemcpyHostToDevice, 0);
  free(Small);
  free(Large);
}

// A pool's allocation in a loop is no cudaMallocHost in a loop: not reported.
void staging(Pool &P, float *Dev, cudaStream_t S) {
  for (int I = 0; I < 4; ++I) {
    float *Chunk = static_cast<float *>(P.allocPinned(4096));
    cudaMemcpyAsync(Dev, Chunk, 4096, cudaMemcpyHostToDevice, S);
    cudaStreamSynchronize(S);
    P.releasePinned(Chunk);
  }
}
