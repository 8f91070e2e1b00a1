/* err_variable_object_no_init: an initialized variable-length array. clang 22 makes it an error; nvcc 13 accepts. */
#include <cuda_runtime.h>
#include <cstdlib>
static float first(int n) { float a[n] = {0}; return a[0]; }
void run(cudaStream_t s) {
  (void)first(4);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  float other[4] = {undeclared_variable};
#endif
}
