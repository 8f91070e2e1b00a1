// Sites of each mutation rule (scripts/oracle/mutate.py), and look-alikes
// that are no site.
#include <cuda_runtime.h>
#define CHECK(x) x
#define WAIT_ALL() cudaDeviceSynchronize()
__global__ void scale(float *d);
cudaError_t cudaStreamSynchronize(cudaStream_t s);

void pipeline(float *d, int n, cudaStream_t *streams) {
  float *h;
  CHECK(cudaMallocHost((void **)&h, n * sizeof(float)));
  // cudaStreamSynchronize(streams[0]) in a comment is no call.
  const char *name = "cudaDeviceSynchronize()";
  for (int i = 0; i < 4; ++i) {
    h[i] = 0;
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, streams[i]);
    scale<<<1, 32, 0, streams[i]>>>(d);
    scale<<<1, 32>>>(d);
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, 0);
  }
  CHECK(cudaStreamSynchronize(streams[0]));
  if (n > 4)
    cudaDeviceSynchronize();
  WAIT_ALL();
  cudaFreeHost(h);
}

void registered(float *p, int n, cudaStream_t s) {
  cudaHostRegister(p, n, 0);
  for (int i = 0; i < n; ++i)
    ;
  while (n--) {
    cudaMemcpyAsync(p, p + 1, 4, cudaMemcpyDefault, s);
  }
  cudaHostUnregister(p);
}

void initialized(float *p, int n) {
  cudaHostRegister(p, n, 0);
  for (int i = 0; i < n; ++i) { // uses p, issues no work: no pin-into-loop
    p[i] = 0;
  }
  cudaHostUnregister(p);
}
