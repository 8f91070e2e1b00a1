#include <cstdlib>
#include <cuda_runtime.h>
inline void vendorCopy(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
}
