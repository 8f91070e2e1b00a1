/* warn_consecutive_comparison: 'a < b < c'. clang 22 makes it an error; g++ 12 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
static int ordered(int a, int b, int c) { return a < b < c; }
void run(cudaStream_t s) {
  (void)ordered(1, 2, 3);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  (void)(1 < 2 < );
#endif
}
