/* ext_typecheck_convert_pointer_int: a pointer converted to an integer. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  long bits = (float *)0;
  (void)bits;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct { int x; } v = {0};
  long other = v;
  (void)other;
#endif
}
