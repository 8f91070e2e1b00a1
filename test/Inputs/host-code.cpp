// CUDA host code in a .cpp file, compiled by the host compiler.
#include <cuda_runtime.h>
#include <vector>

void upload(float *d, cudaStream_t stream) {
  std::vector<float> staging(256);
  cudaMemcpyAsync(d, staging.data(), 1024, cudaMemcpyHostToDevice, stream);
}
