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
