/* ext_missing_type_specifier: a declaration without a type (implicit int). clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
static counter = 0;
void run(cudaStream_t s) {
  counter++;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  static unknown_type other;
#endif
}
