// A program of one translation unit: its calls are every call.
#include <cuda_runtime.h>
#include <cstdlib>

void send(const float *host, float *dev, std::size_t bytes, cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *dev = nullptr;
  cudaMalloc(&dev, 64);
  float *host = static_cast<float *>(std::malloc(64));
  send(host, dev, 64, s);
  cudaStreamSynchronize(s);
  return 0;
}
