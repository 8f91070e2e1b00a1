// A program for the recorded GPU proof (scripts/gpu-trace.sh): its upload
// buffer comes from stagingBuffer(), defined in staging_buffer.cpp, which
// the linter is not given. The analysis cannot see that the memory is
// malloc's and reports nothing; the run shows the pageable copy, and
// --runtime-trace reports it at this file's line, found at run time.
#include <cstdio>
#include <cstdlib>

float *stagingBuffer(size_t Count);
void releaseStagingBuffer(float *Buffer);

__global__ void scale(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] *= 2.0f;
}

int main() {
  const int N = 1 << 22;
  float *Host = stagingBuffer(N);
  for (int I = 0; I < N; ++I)
    Host[I] = float(I % 7);
  float *Device;
  cudaMalloc(&Device, N * sizeof(float));
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  for (int Round = 0; Round < 3; ++Round) {
    cudaMemcpyAsync(Device, Host, N * sizeof(float), cudaMemcpyHostToDevice,
                    Stream);
    scale<<<N / 256, 256, 0, Stream>>>(Device, N);
  }
  cudaStreamSynchronize(Stream);
  std::printf("done\n");
  cudaStreamDestroy(Stream);
  cudaFree(Device);
  releaseStagingBuffer(Host);
  return 0;
}
