#include <cstdlib>
#include <cuda_runtime.h>

// NOLINTBEGIN(cuda-async-pageable-copy)
void unmatched(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Host);
}

void stray(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Host);
}

// A note on a NOLINT line is dropped with the notes after it, as clang-tidy
// drops it; the finding stays.
void quietNote(float *Dev, cudaStream_t S) {
  float *Host = static_cast<float *>(malloc(4096)); // NOLINT(cuda-async-pageable-copy)
  cudaMemcpyAsync(Dev, Host, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Host);
}
