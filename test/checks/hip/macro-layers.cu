// A codebase built for CUDA and HIP alike maps one API onto the other with
// macros (hipify's portability headers, a 'gpu*' layer). The checks see the
// call the macros expand to: analysed as HIP, the HIP runtime's; as CUDA,
// CUDA's. Findings are reported where the code spells the call.
// RUN: not %lint --checks='-*,cuda-async-*' %s | %check_messages --check-prefix=CUDA %s
// RUN: not %lint --checks='-*,cuda-async-*' %s -- %hip_args | %check_messages --check-prefix=HIP %s
// RUN: %tidy --checks='-*,cuda-async-*' %s -- %cuda_args | %check_messages --check-prefix=CUDA %s
// RUN: %tidy --checks='-*,cuda-async-*' %s -- %hip_args | %check_messages --check-prefix=HIP %s
// RUN: %if rocm %{ not %lint_rocm --checks='-*,cuda-async-*' %s -- %rocm_args | %check_messages --check-prefix=HIP %s %}

#include <cstdlib>

#if defined(__HIP__)
// hipify's style: CUDA's names, defined as HIP's.
#include <hip/hip_runtime.h>
#define cudaStream_t hipStream_t
#define cudaStreamCreate hipStreamCreate
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMallocHost hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaMalloc hipMalloc
// A neutral layer over both: gpu* names.
#define gpuStream_t hipStream_t
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuHostRegister hipHostRegister
#define gpuStreamSynchronize hipStreamSynchronize
#else
#define gpuStream_t cudaStream_t
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuHostRegister cudaHostRegister
#define gpuStreamSynchronize cudaStreamSynchronize
#endif

// A layer of functions over both: the checks follow the buffer into it.
static int gpuUpload(void *d, const void *h, size_t n, gpuStream_t s) {
  return gpuMemcpyAsync(d, h, n, gpuMemcpyHostToDevice, s);
  // CUDA: :[[@LINE-1]]:10: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // HIP: :[[@LINE-2]]:10: warning: 'hipMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with hipHostMalloc, or pin it with hipHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :{{[0-9]+}}:24: note: expanded from macro 'gpuMemcpyAsync'
  // CHECK-MESSAGES: :[[@LINE+15]]:23: note: pageable memory allocated here with 'malloc'
}

void hipifiedNames(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CUDA: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory
  // HIP: :[[@LINE-2]]:3: warning: 'hipMemcpyAsync' from pageable host memory
  // HIP: :{{[0-9]+}}:25: note: expanded from macro 'cudaMemcpyAsync'
  // CHECK-MESSAGES: :[[@LINE-5]]:23: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s);
  free(h);
}

void functionLayer(float *d, gpuStream_t s) {
  float *h = (float *)malloc(1024);
  gpuUpload(d, h, 1024, s);
  gpuStreamSynchronize(s);
  free(h);
}

void pinnedThroughMacros(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost((void **)&h, 1024);
  gpuMemcpyAsync(d, h, 1024, gpuMemcpyHostToDevice, s);
  gpuStreamSynchronize(s);
  free(h);
  // CUDA: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
  // CUDA: :[[@LINE-5]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // HIP: :[[@LINE-3]]:3: warning: 'free' releases pinned memory; release it with 'hipHostFree' [cuda-async-dealloc-mismatch]
  // HIP: :[[@LINE-7]]:3: note: pinned memory allocated here with 'hipHostMalloc'
  // HIP: :{{[0-9]+}}:24: note: expanded from macro 'cudaMallocHost'
}

// Negatives: registered memory, and a buffer read after the wait.
float registeredThroughMacros(float *d, gpuStream_t s) {
  static float h[256];
  gpuHostRegister(h, sizeof h, 0);
  gpuMemcpyAsync(d, h, sizeof h, gpuMemcpyHostToDevice, s);
  gpuStreamSynchronize(s);
  return h[0];
}
