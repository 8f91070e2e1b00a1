// A HIP pipeline stage: its upload stages through pageable memory.
#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

void stage(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, s, d);
  hipStreamSynchronize(s);
  free(h);
}
