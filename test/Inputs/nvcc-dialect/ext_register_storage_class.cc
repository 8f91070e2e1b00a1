/* ext_register_storage_class: 'register' in C++17. clang 22 makes it an error; g++ 12 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
void run(cudaStream_t s) {
  register int r = 0;
  (void)r;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  register int other = undeclared_variable;
#endif
}
