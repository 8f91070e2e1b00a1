#include "buffers.h"

float *allocPinned(int n) {
  float *p = nullptr;
  cudaMallocHost(&p, n * sizeof(float));
  return p;
}

void pin(float *p, std::size_t bytes) { cudaHostRegister(p, bytes, 0); }

void Reservoir::allocate(int n) {
  cudaMallocHost(&cells, n * sizeof(float));
}
