/* warn_init_priority_reserved: an init_priority below 101, reserved. clang 22 makes it an error; g++ 12 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
struct Registry { Registry(); };
Registry registry __attribute__((init_priority(50)));
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int other = undeclared_variable;
#endif
}
