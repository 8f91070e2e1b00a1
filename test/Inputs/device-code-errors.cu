// clang rejects this device code; nvcc accepts it. The host code is whole.
#include <cstdlib>

struct Counter {
  int n;
  __device__ Counter() : n(0) {}
};

__global__ void count(int *out) {
  __shared__ Counter c; // clang: initialization is not supported
  out[threadIdx.x] = c.n;
}

template <int N> __global__ void fill(float *p) {
  __shared__ float tile[N] = {0}; // clang: in every instantiation
  p[threadIdx.x] = tile[threadIdx.x % N];
}

void upload(float *d, int *o, cudaStream_t s) {
  float *h = (float *)malloc(256 * sizeof(float));
  cudaMemcpyAsync(d, h, 256 * sizeof(float), cudaMemcpyHostToDevice, s);
  count<<<1, 32, 0, s>>>(o);
  fill<8><<<1, 32, 0, s>>>(d);
  cudaStreamSynchronize(s);
  free(h);
}

#ifdef HOST_ERROR
void host() { undeclared(); }
#endif
#ifdef HOST_DEVICE_ERROR
__host__ __device__ void both() { undeclared(); }
#endif
#ifdef HOST_VLA
// GCC (nvcc's host compiler) initializes a variable-length array; clang
// rejects the initializer and keeps the array and its uses.
void stage(float *d, int n, cudaStream_t s) {
  float staging[n] = {0};
  cudaMemcpyAsync(d, staging, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
}
#endif
