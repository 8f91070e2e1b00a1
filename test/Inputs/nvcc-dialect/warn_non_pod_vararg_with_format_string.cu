/* warn_non_pod_vararg_with_format_string: a std::string passed to printf. clang 22 makes it an error; nvcc 13 accepts. */
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstdio>
#include <string>
// clang makes the argument a call of __builtin_trap ("call will abort at
// runtime"): what follows in this function reads as unreachable.
void logName() {
  std::string name = "x";
  printf("%s", name);
}
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  printf("%s", undeclared_variable);
#endif
}
