#include "buffers.h"

// Every call in the program passes malloc'd memory (main.cu).
void upload(const float *host, float *dev, std::size_t bytes, cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

// Pageable and pinned memory from different calls: unknown.
void uploadMixed(const float *host, float *dev, std::size_t bytes,
                 cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

// Only ever given pinned memory.
void uploadPinned(const float *host, float *dev, std::size_t bytes,
                  cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

// Its address is taken (main.cu): callers the program cannot list.
void uploadViaPointer(const float *host, float *dev, std::size_t bytes,
                      cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

// Exported from a shared library: callers outside the program.
void exportedUpload(const float *host, float *dev, std::size_t bytes,
                    cudaStream_t s) {
  cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}

// A flag says what the pointer is: its branches are not all reachable.
void uploadFlag(const float *host, float *dev, std::size_t bytes,
                cudaStream_t s, bool staged) {
  if (staged)
    cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
}
