// What nvcc's host pass sees and clang's CUDA mode does not by default.
#ifdef WITH_CCCL
// CUDA 13 keeps these under include/cccl, which nvcc adds implicitly.
#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/std/type_traits>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#endif
#include <cstdlib>

__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }

int blocksFor(int cores, unsigned sms, long n, float share) {
  // nvcc declares min/max __host__ __device__ for every integer and
  // floating pair; clang's headers only for device code.
  float f = max(share, 32.0f / cores);
  unsigned u = min(cores, sms);
  long l = max(n, 1L);
  double d = min(1.0, f);
  return (int)(f + u + l + d);
}

void upload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(256 * sizeof(float));
  cudaMemcpyAsync(d, h, 256 * sizeof(float), cudaMemcpyHostToDevice, s);
  scale<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
  free(h);
}
