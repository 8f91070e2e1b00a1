// A function clang predeclares as a builtin and gcc does not, defined by
// the project (gcc declares __rdtsc only in <x86intrin.h>).
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdlib>

static uint64_t inline __rdtsc() { return 0; }

void upload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64 + __rdtsc());
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
#ifdef GENUINE_ERROR
  static int taken;
  extern int taken;
#endif
}
