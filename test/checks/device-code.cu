// The checks look at host code only (analysis/code/HostFunctions.h): a
// __global__ function's body, and a __device__ function that is not also
// __host__, are device code however clang's host pass parses them, and are
// not analysed: device-side malloc and cudaFree (the device runtime, with
// relocatable device code) are no host release. A __host__ __device__
// function, a host lambda and a host function template's instantiation are
// host code, and are. Device-only functions are left out of what the checks
// walk (analysis/code/TraversalScope.h) in a namespace and an extern "C" block
// too; the host functions beside them are not.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-*' %s -- -fgpu-rdc | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-*' %s -- %toolkit_args -fgpu-rdc | %check_messages %s

#include <cstdlib>

__device__ void deviceRelease() {
  float *p = (float *)malloc(64);
  cudaFree(p);
}

template <typename T> __device__ void deviceTemplate(int n) {
  for (int i = 0; i < n; ++i) {
    T *p = (T *)malloc(64);
    cudaFree(p);
  }
}

__global__ void kernel(float *d, int n) {
  deviceTemplate<float>(n);
  deviceRelease();
  auto inKernel = [] {
    float *p = (float *)malloc(64);
    cudaFree(p);
  };
  inKernel();
}

__host__ __device__ void both(float *d) {
  float *p = (float *)malloc(64);
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
}

template <typename T> void hostTemplate(T *d, cudaStream_t s) {
  T *h = (T *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s);
  free(h);
}

void host(float *d, int n, cudaStream_t s) {
  kernel<<<1, 32, 0, s>>>(d, n);
  auto inHost = [] {
    float *p = (float *)malloc(64);
    cudaFree(p);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFree' releases pageable memory; release it with 'free'
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: pageable memory allocated here with 'malloc'
  };
  inHost();
  both(d);
  hostTemplate(d, s);
}

namespace kernels {
__global__ void inNamespace() {
  float *p = (float *)malloc(64);
  cudaFree(p);
}
template <int N> __device__ void templateInNamespace() {
  float *p = (float *)malloc(N);
  cudaFree(p);
}
__global__ void callsIt() { templateInNamespace<64>(); }

void hostInNamespace() {
  float *p = (float *)malloc(64);
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
}
namespace nested {
__host__ __device__ void bothNested() {
  float *p = (float *)malloc(64);
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
}
} // namespace nested
} // namespace kernels

extern "C" {
__device__ void deviceInExternC() {
  float *p = (float *)malloc(64);
  cudaFree(p);
}
void hostInExternC() {
  float *p = (float *)malloc(64);
  cudaFree(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
}
}
