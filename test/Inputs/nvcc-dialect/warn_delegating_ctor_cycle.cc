/* warn_delegating_ctor_cycle: constructors that delegate to each other. clang 22 makes it an error; g++ 12 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
struct Loop { Loop() : Loop(1) {} Loop(int) : Loop() {} };
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct Other { Other() : Other(1, 2) {} };
#endif
}
