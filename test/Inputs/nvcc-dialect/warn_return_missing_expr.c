/* warn_return_missing_expr: 'return;' in a function returning int, in C89. clang 22 makes it an error; gcc 12 -std=gnu89 warns. */
/* args: -std=gnu89 */
#include <cuda_runtime.h>
#include <stdlib.h>
static int nothing(void) { return; }
void run(cudaStream_t s) {
  (void)nothing();
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct { int x; } v = {0};
  int other = v;
#endif
}
