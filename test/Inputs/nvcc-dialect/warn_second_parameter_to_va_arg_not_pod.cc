/* warn_second_parameter_to_va_arg_not_pod: va_arg of a non-trivial type. clang 22 makes it an error; g++ 12 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstdarg>
struct Handle { Handle(); Handle(const Handle &); ~Handle(); };
Handle next(va_list ap) { return va_arg(ap, Handle); }
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  Handle other = va_arg(undeclared_list, Handle);
#endif
}
