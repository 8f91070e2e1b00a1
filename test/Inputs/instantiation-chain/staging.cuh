// A header's templates: a finding in them names the instantiation that
// the unit analysed and what requested it (instantiation-chain.test).
#pragma once
#include <cstdlib>

template <typename T> void push(T *d, size_t n, cudaStream_t s) {
  T *h = (T *)malloc(n * sizeof(T));
  cudaMemcpyAsync(d, h, n * sizeof(T), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  free(h);
}

template <typename T> void pushTwice(T *d, size_t n, cudaStream_t s) {
  push(d, n, s);
  push(d + n, n, s);
}

template <typename T> struct Staging {
  T *host;
  void upload(T *d, size_t n, cudaStream_t s) {
    cudaMemcpyAsync(d, host, n * sizeof(T), cudaMemcpyHostToDevice, s);
  }
};

// Not a template: no chain.
inline void release(float *p) {
  float *q = p;
  cudaMallocHost((void **)&q, 64);
  free(q);
}
