// cuda-async-pageable-copy against the real CUDA toolkit headers, where
// cuda.h renames cuMemcpyHtoDAsync to cuMemcpyHtoDAsync_v2, and
// CUDA_API_PER_THREAD_DEFAULT_STREAM renames cudaMemcpyAsync to
// cudaMemcpyAsync_ptsz.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-pageable-copy' %s -- %toolkit_args | %check_messages %s
// RUN: not %lint_toolkit --checks='-*,cuda-async-pageable-copy' %s -- %toolkit_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-pageable-copy' %s -- %toolkit_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM | %check_messages %s

#include <cstdlib>
#include <cuda.h>
#include <vector>

__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

void runtimeApi(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  scale<<<1, 256, 0, s>>>(d);
  std::vector<float> out(256);
  cudaMemcpyAsync(out.data(), d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: the storage of 'out' is pageable memory
  cudaStreamSynchronize(s);
}

void driverApi(CUdeviceptr d, CUstream s) {
  char *h = new char[1024];
  cuMemcpyHtoDAsync(d, h, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemcpyHtoDAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: pageable memory allocated here with 'new[]'
  void *pinned;
  cuMemAllocHost(&pinned, 1024);
  cuMemcpyDtoHAsync(pinned, d, 1024, s);
}

void pinnedAndRegistered(float *d, cudaStream_t s) {
  float *pinned;
  cudaMallocHost(&pinned, 1024);
  cudaMemcpyAsync(d, pinned, 1024, cudaMemcpyHostToDevice, s);
  std::vector<float> staging(256);
  cudaHostRegister(staging.data(), 1024, cudaHostRegisterDefault);
  cudaMemcpyAsync(d, staging.data(), 1024, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(staging.data());
  cudaFreeHost(pinned);
}
