// hipcc compiles .cpp files as HIP.
#include <cstdlib>
#include <hip/hip_runtime.h>

__global__ void fill(float *x) { x[threadIdx.x] = 1; }

void upload(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  fill<<<1, 256, 0, s>>>(d);
  hipStreamSynchronize(s);
  free(h);
}
