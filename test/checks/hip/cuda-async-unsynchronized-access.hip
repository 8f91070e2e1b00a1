// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %rocm_args | %check_messages %s %}

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: host memory touched while a copy into or out of it may run.

float readTooEarly(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'hipMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with hipStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:53: note: on stream 's', not synchronized before the access
}

void writeTooEarly(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  h[0] = 1;
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  h[0] = 2;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h[0]' is written while 'hipMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with hipStreamSynchronize(s) or an event
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:53: note: on stream 's', not synchronized before the access
  hipStreamSynchronize(s);
  hipHostFree(h);
}

float nullStream(float *d) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost);
  return h[1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[1]' is read while 'hipMemcpyAsync' into it may still be in flight on the legacy default stream; wait for it first with hipStreamSynchronize(0) or an event
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
}

// ---------------------------------------------------------------------------
// No finding.

float synchronized(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  hipStreamSynchronize(s);
  return h[0];
}

float eventWaited(float *d, hipStream_t s, hipEvent_t e) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  hipEventRecord(e, s);
  hipEventSynchronize(e);
  return h[0];
}

float polled(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  while (hipStreamQuery(s) == hipErrorNotReady) {
  }
  return h[0];
}

float deviceSynced(float *d, hipStream_t s) {
  float *h;
  hipHostMalloc(&h, 1024);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  hipDeviceSynchronize();
  return h[0];
}

// A kernel launched with hipLaunchKernelGGL writes managed memory the host
// reads before the stream is waited for.
__global__ void fillManaged(int *data) { data[threadIdx.x] = 1; }

int kernelThenRead(hipStream_t s) {
  int *m;
  hipMallocManaged(&m, 1024);
  hipLaunchKernelGGL(fillManaged, dim3(1), dim3(256), 0, s, m);
  return m[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'm[0]' is read while kernel 'fillManaged', which writes it, may still be running on stream 's'; wait for it first with hipStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the kernel is launched here
  // CHECK-MESSAGES: :[[@LINE-4]]:58: note: on stream 's', not synchronized before the access
}

int kernelWaitThenRead(hipStream_t s) {
  int *m;
  hipMallocManaged(&m, 1024);
  hipLaunchKernelGGL(fillManaged, dim3(1), dim3(256), 0, s, m);
  hipStreamSynchronize(s);
  return m[0];
}
