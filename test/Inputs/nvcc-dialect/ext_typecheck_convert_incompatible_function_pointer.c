/* ext_typecheck_convert_incompatible_function_pointer: a function pointer of another type. clang 22 makes it an error; gcc 12 warns. */
#include <cuda_runtime.h>
#include <stdlib.h>
static void done(void) {}
void run(cudaStream_t s) {
  void (*callback)(int) = done;
  (void)callback;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  void (*other)(int) = 1.5;
  (void)other;
#endif
}
