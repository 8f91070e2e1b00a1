// HIP: the same check on AMD's runtime, both front-ends, against the bundled
// HIP declarations and, where ROCm's headers are installed, against those.
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch' %s -- %hip_args | %check_messages %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-dealloc-mismatch' %s | %check_messages %s %}
// RUN: %if rocm %{ %tidy --checks='-*,cuda-async-dealloc-mismatch' %s -- %rocm_args | %check_messages %s %}
// Fix-its name HIP's releasers, applied alike by each front-end.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/lint.hip && cp %s %t/tidy.hip
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch' --fix %t/lint.hip > %t/lint.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/lint.hip
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch' --fix %t/tidy.hip -- %hip_args > %t/tidy.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/tidy.hip
// RUN: diff %t/lint.hip %t/tidy.hip

#include <hip/hip_runtime.h>
#include <cstdlib>

__global__ void scale(float *x) { x[threadIdx.x] *= 2; }

// ---------------------------------------------------------------------------
// Findings: each releaser given memory another allocator owns.

void freeOfHostMalloc() {
  float *h;
  hipHostMalloc(&h, 1024);
  free(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'hipHostFree' [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'hipHostMalloc'
  // CHECK-FIXES: {{^}}  hipHostFree(h);{{$}}
}

void deleteOfHostAlloc() {
  float *h;
  hipHostAlloc((void **)&h, 1024, hipHostMallocDefault);
  delete[] h;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases pinned memory; release it with 'hipHostFree'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'hipHostAlloc'
}

void hostFreeOfMalloc() {
  float *h = (float *)malloc(1024);
  hipHostFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipHostFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-FIXES: {{^}}  free(h);{{$}}
}

void hipFreeOfPinned() {
  void *h;
  hipMallocHost(&h, 1024);
  hipFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipFree' releases pinned memory; release it with 'hipHostFree'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'hipMallocHost'
}

void hostFreeOfDevice() {
  float *d;
  hipMalloc(&d, 1024);
  hipHostFree(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipHostFree' releases device memory; release it with 'hipFree'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: device memory allocated here with 'hipMalloc'
}

void hostFreeOfRegistered() {
  float *h = (float *)malloc(1024);
  hipHostRegister(h, 1024, hipHostRegisterDefault);
  hipHostFree(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'hipHostFree' releases registered pageable memory; unregister it with 'hipHostUnregister' and release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: pageable memory allocated here with 'malloc'
}

// As AMD's HIP-Examples write it (docs/real-code.md): a member allocated in
// one member function, released with the wrong call in another. AMD's
// runtime tolerates hipFree here; HIP's documented contract and HIP over CUDA
// do not.
class Sample {
  unsigned *buffer = nullptr;

public:
  void runKernels(size_t n) {
    hipHostMalloc((void **)&buffer, n * sizeof(unsigned), hipHostMallocDefault);
  }
  void cleanup() {
    hipFree(buffer);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'hipFree' releases pinned memory; release it with 'hipHostFree'
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: pinned memory allocated here with 'hipHostMalloc'
  }
};

// ---------------------------------------------------------------------------
// The right releaser: none.

void matched() {
  float *a, *b, *c, *d;
  void *e;
  hipHostMalloc(&a, 1024);
  hipHostFree(a);
  hipMallocHost((void **)&b, 1024);
  hipFreeHost(b);
  hipMalloc(&c, 1024);
  hipFree(c);
  hipMallocManaged(&d, 1024);
  hipFree(d);
  hipMallocAsync(&e, 1024, 0);
  hipFreeAsync(e, 0);
  float *h = (float *)malloc(1024);
  hipHostRegister(h, 1024, 0);
  hipHostUnregister(h);
  free(h);
}

// A pointer from somewhere else: unknown, not reported.
void unknown(float *p) { hipHostFree(p); }
