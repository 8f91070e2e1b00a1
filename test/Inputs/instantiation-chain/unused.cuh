// Templates main.cu includes and never instantiates: the language server
// says their code was not analysed (instantiation-chain.test).
#pragma once
#include <cstdlib>

template <typename T> T largest(T a, T b) { return a < b ? b : a; }

template <typename T> void fetch(T *h, const T *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
}

template <typename T> struct Mirror {
  T *host;
  void pull(const T *d, size_t n, cudaStream_t s);
};

template <typename T>
void Mirror<T>::pull(const T *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(host, d, n * sizeof(T), cudaMemcpyDeviceToHost, s);
}
