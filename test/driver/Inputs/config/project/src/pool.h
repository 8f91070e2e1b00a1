#include <cstddef>
#include <cstdlib>
#include <cuda_runtime.h>

// A project's pinned-memory pool: what the configuration names.
struct Pool {
  void *allocPinned(size_t Bytes);
  void releasePinned(void *P);
};

// A header's own finding, for the header filters.
inline void headerCopy(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
}

// Allocators that store the memory through an out-parameter, as
// cudaMallocHost does: the configuration names them as it names the others.
namespace pool {
cudaError_t cudaMallocHost(void **P, size_t Bytes);
cudaError_t cudaFreeHost(void *P);
void allocInto(size_t Bytes, float *&P);
} // namespace pool
