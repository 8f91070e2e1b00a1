/* ext_implicit_lib_function_decl_c99: a call of an undeclared library function. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  double root = sqrt(2.0);
  (void)root;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  double other = sqrt(undeclared_variable);
  (void)other;
#endif
}
