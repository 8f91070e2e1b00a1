/* ext_init_list_variable_narrowing: a narrowing from a non-constant long in a braced initializer. clang 22 makes it an error; nvcc 13 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
static int first(long x) { int a[] = {x}; return a[0]; }
void run(cudaStream_t s) {
  (void)first(1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int b[] = {"x"};
#endif
}
