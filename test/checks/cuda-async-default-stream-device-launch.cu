// Launches inside device code are dynamic parallelism: not host launches on
// the legacy stream, whatever their stream argument (relocatable device
// code, against the real toolkit: its headers declare the device runtime).
// REQUIRES: cuda-toolkit
// RUN: %lint_toolkit --checks='-*,cuda-async-default-stream,cuda-async-sync-in-loop' %s -- -fgpu-rdc | count 0
// RUN: %tidy_toolkit --checks='-*,cuda-async-default-stream,cuda-async-sync-in-loop' %s -- %toolkit_args -fgpu-rdc | count 0

__global__ void child(float *d) {}

__global__ void parentKernel(float *d, int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, d + 1, 4, cudaMemcpyDeviceToDevice, 0);
    child<<<1, 32>>>(d);
    child<<<1, 32, 0, s>>>(d);
  }
}
