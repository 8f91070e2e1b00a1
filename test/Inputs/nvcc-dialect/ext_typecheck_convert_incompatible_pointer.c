/* ext_typecheck_convert_incompatible_pointer: 'float **' passed where 'void **' is expected. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  float *pinned;
  cudaMallocHost((float **)&pinned, 16);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  struct { int x; } v = {0};
  cudaMalloc(v, 16); /* a struct for a pointer */
#endif
}
