#include <cuda_runtime.h>
#include <stdlib.h>

void consume(float v);

void other(float *d, cudaStream_t s) {
  cudaMemsetAsync(d, 0, 64, s);
}

void relies(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64 * sizeof(float));
  cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  // EDIT-BETWEEN
  consume(h[0]);
  free(h);
}

void race(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 64 * sizeof(float));
  cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  cudaFreeHost(h);
}
