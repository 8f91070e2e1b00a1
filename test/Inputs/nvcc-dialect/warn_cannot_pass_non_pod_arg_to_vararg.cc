/* warn_cannot_pass_non_pod_arg_to_vararg: a non-trivial object passed through '...'. clang 22 makes it an error; g++ 12 accepts. */
#include <cuda_runtime.h>
#include <cstdlib>
struct Handle { Handle(); Handle(const Handle &); ~Handle(); };
void logAll(int, ...);
// clang makes the argument a call of __builtin_trap ("call will abort at
// runtime"): what follows in this function reads as unreachable.
void logHandle() {
  Handle handle;
  logAll(1, handle);
}
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  logAll(1, undeclared_variable);
#endif
}
