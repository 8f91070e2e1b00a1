/* ext_return_has_expr: 'return 1;' in a function returning void. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
static void nothing(void) { return 1; }
void run(cudaStream_t s) {
  nothing();
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  return undeclared_variable;
#endif
}
