/* ext_implicit_function_decl_c99: a call of an undeclared function. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  undeclared_helper(1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  undeclared_variable = 1;
#endif
}
