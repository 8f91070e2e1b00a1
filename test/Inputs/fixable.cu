// Two findings with fix-its, one of each release check.
#include <cstdlib>

void release(size_t n) {
  float *pinned;
  cudaMallocHost(&pinned, n);
  free(pinned);
  float *staging = (float *)malloc(n);
  cudaHostRegister(staging, n, 0);
  free(staging);
}
