// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-host-register-leak' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-host-register-leak' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-host-register-leak' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-host-register-leak' %s -- %rocm_args | %check_messages %s %}
// The fix-it inserts HIP's unregister call.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/lint.hip
// RUN: not %lint --checks='-*,cuda-async-host-register-leak' --fix %t/lint.hip > %t/lint.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/lint.hip

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: registered memory released while still registered.

void freeWhileRegistered(float *d, hipStream_t s) {
  float *h = (float *)malloc(1024);
  hipHostRegister(h, 1024, hipHostRegisterDefault);
  hipMemcpyAsync(d, h, 1024, hipMemcpyHostToDevice, s);
  hipStreamSynchronize(s);
  free(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the HIP runtime; call 'hipHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: registered here with 'hipHostRegister'
  // CHECK-FIXES: {{^}}  hipHostUnregister(h);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  free(h);{{$}}
}

void deleteWhileRegistered() {
  float *h = new float[256];
  hipHostRegister(h, 1024, hipHostRegisterMapped);
  delete[] h;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases memory that is still registered with the HIP runtime; call 'hipHostUnregister' first
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'hipHostRegister'
}

// ---------------------------------------------------------------------------
// No finding.

void unregisteredFirst() {
  float *h = (float *)malloc(1024);
  hipHostRegister(h, 1024, 0);
  hipHostUnregister(h);
  free(h);
}

// The registration failed: nothing to unregister.
void registrationFailed() {
  float *h = (float *)malloc(1024);
  if (hipHostRegister(h, 1024, 0) != hipSuccess) {
    free(h);
    return;
  }
  hipHostUnregister(h);
  free(h);
}
