/* warn_atomic_member_access: a member of an atomic structure. clang 22 makes it an error; gcc 12 warns. */
/* unlisted: clang reports it through its analysis-based warnings, which the
   tool's -w skips: it never fails the parse, and is not listed either. */
#include <cuda_runtime.h>
#include <stdlib.h>
static _Atomic struct { int x; } shared_state;
void run(cudaStream_t s) {
  int x = shared_state.x;
  (void)x;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  int y = shared_state.y;
#endif
}
