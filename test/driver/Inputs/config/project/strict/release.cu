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

// Out-parameter allocators of the configuration: the memory is pinned.
void releaseOut(float *Dev, cudaStream_t S) {
  void *P = nullptr;
  pool::cudaMallocHost(&P, 4096);
  cudaMemcpyAsync(Dev, P, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(P);
  float *R = nullptr;
  pool::allocInto(4096, R);
  cudaMemcpyAsync(Dev, R, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  delete[] R;
  void *Q = nullptr;
  pool::cudaMallocHost(&Q, 4096);
  pool::cudaFreeHost(Q);
}
