/* ext_init_list_type_narrowing: a narrowing from a non-constant double in a braced initializer. clang 22 makes it an error; nvcc 13 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
static int first(double x) { int a[] = {x}; return a[0]; }
void run(cudaStream_t s) {
  (void)first(1.5);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int b[] = {"x"};
#endif
}
