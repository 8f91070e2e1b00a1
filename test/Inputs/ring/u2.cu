// Unit 2 of a ring: it copies what the previous unit allocates, and
// hands pageable memory of its own to the next unit's send3.
#include <cstdlib>
void send3(float *h, size_t n, cudaStream_t s);
void send2(float *h, size_t n, cudaStream_t s) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
}
void start2(cudaStream_t s) {
  float *h = static_cast<float *>(std::malloc(64 * sizeof(float)));
  send3(h, 64, s);
  std::free(h);
}
