// A pipeline for --runtime-trace's tests; pipeline.trace.json is a trace of
// a run of it, as cuda-async-trace writes one (recorded by hand, with the
// program built in another checkout).
#include <cstdlib>

float *opaqueBuffer(size_t bytes); // defined elsewhere: malloc, it turns out

__global__ void k(float *p) {}

void pipeline(float *d, cudaStream_t s, int n, bool rare) {
  float *in = (float *)malloc(1 << 20);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, in, 1 << 20, cudaMemcpyHostToDevice, s);
    k<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(in, d, 1 << 20, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
  float *pinned;
  cudaMallocHost(&pinned, 1 << 20);
  if (rare)
    free(pinned);
  float *hidden = opaqueBuffer(1 << 20);
  cudaMemcpyAsync(d, hidden, 1 << 20, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  free(in);
}
