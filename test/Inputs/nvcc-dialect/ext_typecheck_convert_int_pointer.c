/* ext_typecheck_convert_int_pointer: an integer converted to a pointer. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
void run(cudaStream_t s) {
  int *address = 4096;
  (void)address;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int *other = 1.5;
  (void)other;
#endif
}
