/* ext_init_list_variable_narrowing_const_reference: a const reference member of an aggregate initialized from a non-constant long. clang 22 makes it an error; nvcc 13 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
struct View { const int &value; };
static int first(long x) { View v{x}; return v.value; }
void run(cudaStream_t s) {
  (void)first(1);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  View other{"x"};
#endif
}
