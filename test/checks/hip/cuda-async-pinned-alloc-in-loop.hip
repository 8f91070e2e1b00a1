// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-pinned-alloc-in-loop' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pinned-alloc-in-loop' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-pinned-alloc-in-loop' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-pinned-alloc-in-loop' %s -- %rocm_args | %check_messages %s %}

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: pinned memory allocated and released in every iteration.

void hostMallocInLoop(float *d, hipStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    float *h;
    hipHostMalloc(&h, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipHostMalloc' allocates pinned memory in every iteration of a loop that releases it again; page-locking costs a system call per iteration and stalls the pipeline: allocate the buffer once before the loop and reuse it [cuda-async-pinned-alloc-in-loop]
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: released here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the loop issues asynchronous transfers here
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
    hipStreamSynchronize(s);
    hipHostFree(h);
  }
}

void registerInLoop(float *d, float *h, hipStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    hipHostRegister(h, 1024, hipHostRegisterDefault);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipHostRegister' page-locks pinned memory in every iteration of a loop that unregisters it again
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: unregistered here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the loop issues asynchronous transfers here
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
    hipStreamSynchronize(s);
    hipHostUnregister(h);
  }
}

// ---------------------------------------------------------------------------
// No finding.

// Allocated once, reused.
void hoisted(float *d, hipStream_t s, int n) {
  float *h;
  hipHostMalloc(&h, 1024);
  for (int i = 0; i < n; ++i)
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  hipHostFree(h);
}

// Device memory per iteration is not page-locking.
void deviceInLoop(float *h, hipStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    float *d;
    hipMalloc(&d, 1024);
    hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
    hipStreamSynchronize(s);
    hipFree(d);
  }
}
