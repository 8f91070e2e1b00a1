/* warn_builtin_unknown: a call of an unknown __builtin_ function. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  __builtin_frobnicate(1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  __builtin_expect();
#endif
}
