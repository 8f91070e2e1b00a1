// A program for the recorded GPU proof (scripts/gpu-trace.sh): its results
// are read by summarize(), defined in results_reader.cpp, which the linter
// is not given, through a pointer handed over before the copy was issued.
// The analysis sees no access after the copy; the run (cuda-async-trace
// --races) catches summarize() reading the destination in flight, and
// --runtime-trace reports it, found at run time.
#include <cstdio>

void keepResults(const float *Results, int Count);
float summarize();

__global__ void fill(float *X, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = 1.0f;
}

int main() {
  const int N = 1 << 24;
  float *Results;
  cudaMallocHost(&Results, N * sizeof(float));
  keepResults(Results, N);
  float *Device;
  cudaMalloc(&Device, N * sizeof(float));
  cudaStream_t Stream;
  cudaStreamCreate(&Stream);
  fill<<<N / 256, 256, 0, Stream>>>(Device, N);
  cudaMemcpyAsync(Results, Device, N * sizeof(float), cudaMemcpyDeviceToHost,
                  Stream);
  float Early = summarize();
  cudaStreamSynchronize(Stream);
  float Late = summarize();
  std::printf("sum before the wait %.0f, after %.0f\n", Early, Late);
  cudaStreamDestroy(Stream);
  cudaFree(Device);
  cudaFreeHost(Results);
  return 0;
}
