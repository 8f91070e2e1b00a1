// A std::vector pinned in place with cudaHostRegister for its uploads, then
// unregistered one copy too early: the last download lands in pageable
// memory again and runs synchronously. cuda-async-lint reports that copy
// only.
#include <cstdio>
#include <vector>

__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= x[i];
}

int main() {
  const int n = 1 << 22;
  std::vector<float> staging(n, 3.0f);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  cudaHostRegister(staging.data(), n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(d, staging.data(), n * sizeof(float),
                  cudaMemcpyHostToDevice, stream);
  square<<<n / 256, 256, 0, stream>>>(d, n);
  cudaStreamSynchronize(stream);
  cudaHostUnregister(staging.data());

  cudaMemcpyAsync(staging.data(), d, n * sizeof(float),
                  cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  printf("staging[0] = %f\n", staging[0]);

  cudaStreamDestroy(stream);
  cudaFree(d);
  return 0;
}
