// Unit 3 of a ring: it copies what the previous unit allocates, and
// hands pageable memory of its own to the next unit's send0.
#include <cstdlib>
void send0(float *h, size_t n, cudaStream_t s);
void send3(float *h, size_t n, cudaStream_t s) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFree(d);
}
void start3(cudaStream_t s) {
  float *h = static_cast<float *>(std::malloc(64 * sizeof(float)));
  send0(h, 64, s);
  std::free(h);
}
