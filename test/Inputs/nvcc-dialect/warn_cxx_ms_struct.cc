/* warn_cxx_ms_struct: ms_struct on a class with a base and virtual functions. clang 22 makes it an error; g++ 12 accepts. */
#include <cuda_runtime.h>
#include <cstdlib>
struct Base {};
struct __attribute__((ms_struct)) Packed : Base { virtual void f(); };
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct __attribute__((ms_struct)) Other : UndeclaredBase {};
#endif
}
