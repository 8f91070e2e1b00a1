// A HIP project's host-only file, compiled by the C++ compiler
// (-D__HIP_PLATFORM_AMD__, as CMake's hip::host gives it).
#include <cstdlib>
#include <hip/hip_runtime_api.h>

void upload(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  free(h);
}
