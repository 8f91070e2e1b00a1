/* ext_reserved_user_defined_literal: a string literal glued to a macro ('"%"FMT'). clang 22 makes it an error; nvcc 13 warns and reads two tokens. */
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstdio>
#define FMT "d"
void run(cudaStream_t s) {
  printf("%"FMT"\n", 1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  printf("%"UNDEFINED_FMT"\n", 1);
#endif
}
