// A non-constant narrowing in a braced initializer: g++ 12 warns
// (-Wnarrowing), clang 22 rejects it.
#include <cuda_runtime.h>
#include <cstdlib>
void narrow(double x, float *d, cudaStream_t s) {
  int a[] = {x};
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  (void)a;
}
