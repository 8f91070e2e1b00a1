/* err_cuda_extern_shared: 'extern __shared__' on a variable that is no array. clang 22 makes it an error; nvcc 13 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
extern __shared__ int counter;
__global__ void k() { counter = 1; }
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  __shared__ int other;
#endif
}
