/* err_integer_literal_too_large: an integer literal too large for any type. clang 22 makes it an error; nvcc 13 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
static unsigned long long big = 999999999999999999999999;
void run(cudaStream_t s) {
  (void)big;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  unsigned long long other = 12abc;
#endif
}
