// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-default-stream' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-default-stream' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-default-stream' %s -- %rocm_args | %check_messages %s %}
// Built with -fgpu-default-stream=per-thread (hipcc passes it to clang), or
// HIP_API_PER_THREAD_DEFAULT_STREAM: 0 is the per-thread stream, no finding.
// RUN: %lint_bin --checks='-*,cuda-async-default-stream' %s -- %hip_args -fgpu-default-stream=per-thread | count 0
// RUN: %lint_bin --checks='-*,cuda-async-default-stream' %s -- %hip_args -DHIP_API_PER_THREAD_DEFAULT_STREAM=1 | count 0
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %hip_args -fgpu-default-stream=per-thread | count 0

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: null-stream work between work on created streams.

void nullStreamBetween(float *d, float *e, float *h, int n) {
  hipStream_t s1, s2;
  hipStreamCreate(&s1);
  hipStreamCreate(&s2);
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s1);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, 0, e);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or hipStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: work on a created stream issued here waits for it
    hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s2);
  }
  hipStreamSynchronize(s1);
  hipStreamSynchronize(s2);
}

void copyOnNullStream(float *d, float *e, float *h, int n) {
  hipStream_t s;
  hipStreamCreate(&s);
  for (int i = 0; i < n; ++i) {
    scale<<<1, 256, 0, s>>>(d);
    hipMemsetAsync(e, 0, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipMemsetAsync' on the legacy default stream waits for all earlier work
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: work on a created stream issued here waits for it
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  }
  hipStreamSynchronize(s);
}

// ---------------------------------------------------------------------------
// No finding.

// Non-blocking streams do not wait for the null stream.
void nonBlocking(float *d, float *e, float *h, int n) {
  hipStream_t s;
  hipStreamCreateWithFlags(&s, hipStreamNonBlocking);
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, 0, e);
    hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  }
  hipStreamSynchronize(s);
}

// hipStreamPerThread is no legacy stream.
void perThread(float *d, float *e, float *h, int n) {
  hipStream_t s;
  hipStreamCreate(&s);
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, hipStreamPerThread, e);
    hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, s);
  }
  hipStreamSynchronize(s);
}

// Everything on the null stream: nothing to overlap with.
void allOnNullStream(float *d, float *h) {
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, 0);
  hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, 0, d);
  hipMemcpyAsync(h, d, 1024, hipMemcpyDeviceToHost, 0);
  hipDeviceSynchronize();
}
