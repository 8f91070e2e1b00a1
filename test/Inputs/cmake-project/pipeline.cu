#include "staging.h"
#include <cstdlib>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 1 << 20;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float *h = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  scale<<<n / 256, 256, 0, stream>>>(d, n);
  stage(d, stream);
  cudaStreamSynchronize(stream);
  free(h);
  cudaFree(d);
  return 0;
}
