// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-pageable-copy' %s -- %rocm_args | %check_messages %s %}

#include <hip/hip_runtime.h>
#include <cstdlib>
#include <vector>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Pageable origins: each is a finding.

void fromMalloc(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with hipHostMalloc, or pin it with hipHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  hipStreamSynchronize(s); // (pinned, the buffer would need this wait)
  free(h);
}

void intoNew(float *d, hipStream_t s) {
  float *h = new float[256];
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpyAsync' into pageable host memory is staged and synchronous
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: pageable memory allocated here with 'new[]'
  hipStreamSynchronize(s); // (pinned, the buffer would need this wait)
  delete[] h;
}

void fromVector(float *d, hipStream_t s) {
  std::vector<float> v(256);
  hipMemcpyAsync(d, v.data(), 1024, hipMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpyAsync' from pageable host memory
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: the storage of 'v' is pageable memory
  hipStreamSynchronize(s); // (pinned, the buffer would need this wait)
}

// The driver-style copies name their direction.
void driverStyle(hipDeviceptr_t d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipMemcpyHtoDAsync(d, h, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpyHtoDAsync' from pageable host memory
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  hipMemcpyDtoHAsync(h, d, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpyDtoHAsync' into pageable host memory
  // CHECK-MESSAGES: :[[@LINE-6]]:23: note: pageable memory allocated here with 'malloc'
  hipStreamSynchronize(s);
  free(h);
}

void pitched(float *d, hipStream_t s) {
  float *h = (float *)malloc(64 * 64 * 4);
  hipMemcpy2DAsync(d, 256, h, 256, 256, 64, hipMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipMemcpy2DAsync' from pageable host memory
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  hipStreamSynchronize(s); // (pinned, the buffer would need this wait)
  free(h);
}

// ---------------------------------------------------------------------------
// Pinned or registered memory, device memory, blocking copies: none.

void fromHostMalloc(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  hipHostFree(h);
}

void fromDeprecatedSpellings(float *d, hipStream_t s) {
  void *a, *b, *c;
  hipMallocHost(&a, 1024);
  hipHostAlloc(&b, 1024, hipHostMallocDefault);
  hipMemAllocHost(&c, 1024);
  hipMemcpyAsync(d, a, 1024, hipMemcpyHostToDevice, s);
  hipMemcpyAsync(d, b, 1024, hipMemcpyHostToDevice, s);
  hipMemcpyAsync(d, c, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  hipHostFree(a);
  hipHostFree(b);
  hipHostFree(c);
}

void fromRegistered(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipHostRegister(h, 1024, hipHostRegisterDefault);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  hipHostUnregister(h);
  free(h);
}

void deviceToDevice(float *d, float *e, hipStream_t s) {
  hipMemcpyAsync(d, e, 1024, hipMemcpyDeviceToDevice, s);
}

void managed(float *d, hipStream_t s) {
  float *m;
  hipMallocManaged(&m, 1024);
  hipMemcpyAsync(d, m, 1024, hipMemcpyDefault, s);
  hipStreamSynchronize(s);
  hipFree(m);
}

// A blocking copy is synchronous anyway: not this check's business.
void blocking(float *d) {
  float *h = (float *)malloc(1024);
  hipMemcpy(d, h, 1024, hipMemcpyHostToDevice);
  free(h);
}

// hipLaunchKernelGGL is no copy.
void launch(float *d, hipStream_t s) {
  hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, s, d);
}
