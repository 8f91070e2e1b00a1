#include <cstdlib>
#include <cuda_runtime.h>

// One finding of each of two checks, copied into each directory of the
// project-clang-tidy test: which ones a run reports says which .clang-tidy
// decided.
void upload(float *Dev, double *Out, float *Staged, cudaStream_t S) {
  cudaMemcpyAsync(Dev, Staged, 4096, cudaMemcpyHostToDevice, 0);
  float *Large = static_cast<float *>(malloc(4096));
  cudaMemcpyAsync(Out, Large, 4096, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  free(Large);
}
