// CUDA host code in a plain C++ file, compiled by the host compiler and
// linked with cudart: a staging ring of pinned buffers, filled on the host
// and uploaded asynchronously. cuda-async-lint analyses .cpp files too and
// reports nothing here.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

int main() {
  const int slots = 3;
  const size_t bytes = 1 << 20;
  float *ring[slots];
  for (int i = 0; i < slots; ++i)
    cudaHostAlloc(&ring[i], bytes, cudaHostAllocDefault);
  float *d;
  cudaMalloc(&d, bytes);
  cudaStream_t stream;
  cudaStreamCreate(&stream);

  for (int i = 0; i < slots; ++i) {
    memset(ring[i], i, bytes);
    cudaMemcpyAsync(d, ring[i], bytes, cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
  }

  cudaStreamDestroy(stream);
  cudaFree(d);
  for (int i = 0; i < slots; ++i)
    cudaFreeHost(ring[i]);
  puts("done");
  return 0;
}
