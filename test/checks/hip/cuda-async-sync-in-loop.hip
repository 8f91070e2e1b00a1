// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-sync-in-loop' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-sync-in-loop' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-sync-in-loop' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-sync-in-loop' %s -- %rocm_args | %check_messages %s %}

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: the wait inside the loop is for this iteration's own work, in
// loops whose iterations use several streams and could otherwise overlap.

void streamSync(float *d, float *h, hipStream_t *st, int n) {
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h + i * 256, 1024, hipMemcpyHostToDevice, st[i % 2]);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, st[i % 2], d);
    hipStreamSynchronize(st[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipStreamSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

void deviceSync(float *d, float *h, hipStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, streams[i]);
    scale<<<1, 256, 0, streams[i]>>>(d);
    hipDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// A copy stream and a compute stream.
void eventSync(float *d, float *h, hipStream_t copy, hipStream_t compute,
               int n) {
  hipEvent_t e;
  hipEventCreateWithFlags(&e, hipEventDisableTiming);
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h + i * 256, 1024, hipMemcpyHostToDevice, copy);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, compute, d);
    hipEventRecord(e, compute);
    hipEventSynchronize(e);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipEventSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// ---------------------------------------------------------------------------
// No finding.

// The wait after the loop lets the iterations overlap.
void waitAfterLoop(float *d, float *h, hipStream_t *st, int n) {
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h + i * 256, 1024, hipMemcpyHostToDevice, st[i % 2]);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, st[i % 2], d);
  }
  hipDeviceSynchronize();
}

// Double buffering: each iteration waits for the other stream's work, issued
// by the previous iteration.
void doubleBuffered(float *d, float *h, hipStream_t *s, int n) {
  for (int i = 0; i < n; ++i) {
    hipStreamSynchronize(s[(i + 1) % 2]);
    hipMemcpyAsync(d, h + i * 256, 1024, hipMemcpyHostToDevice, s[i % 2]);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, s[i % 2], d);
  }
}

// One stream: its iterations could not overlap anyway.
void oneStream(float *d, float *h, hipStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    hipMemcpyAsync(d, h + i * 256, 1024, hipMemcpyHostToDevice, s);
    hipLaunchKernelGGL(scale, dim3(1), dim3(256), 0, s, d);
    hipStreamSynchronize(s);
  }
}
