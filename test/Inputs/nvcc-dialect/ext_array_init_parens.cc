/* ext_array_init_parens: an array member initialized from a parenthesized braced list. clang 22 makes it an error; g++ 12 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
struct Pair { int a[2]; Pair() : a({1, 2}) {} };
void run(cudaStream_t s) {
  Pair p;
  (void)p;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct Other { int a[2]; Other() : b(1) {} };
#endif
}
