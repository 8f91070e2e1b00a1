/* ext_param_not_declared: a K&R parameter without a declaration (implicit int). clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
static int twice(a) { return 2 * a; }
void run(cudaStream_t s) {
  (void)twice(1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int other(b) float c; { return b; }
#endif
}
