// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-default-stream' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %cuda_args | %check_messages %s
// Compiled with nvcc --default-stream per-thread: 0 is the per-thread stream.
// RUN: not %lint_bin --checks='-*,cuda-async-default-stream' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | FileCheck %s --check-prefix=PER-THREAD --implicit-check-not='{{warning|note|error}}:'
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | FileCheck %s --check-prefix=PER-THREAD --implicit-check-not='{{warning|note|error}}:'

#include <cstddef>
#include <cuda.h>

__global__ void kernel(float *x) {}

// ---------------------------------------------------------------------------
// Async transfers on the legacy default stream inside a loop.

void transfersInLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop waits for all earlier work on the device and holds back all later work, so nothing overlaps; create streams and pass them (or use cudaStreamPerThread) [cuda-async-default-stream]
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the default stream inside a loop queues every iteration's work on one stream, so nothing overlaps; create streams and pass them [cuda-async-default-stream]
    cudaMemsetAsync(d, 0, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemsetAsync' on the legacy default stream inside a loop
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemsetAsync' on the default stream inside a loop
  }
}

void spellingsOfTheLegacyStream(float *d, float *h, int n) {
  int i = 0;
  while (i++ < n) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, nullptr);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the default stream inside a loop
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, NULL);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the default stream inside a loop
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, cudaStreamLegacy);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
  }
}

void doWhileAndRangeFor(float *d, float *h, int n, const int (&sizes)[4]) {
  int i = 0;
  do {
    cudaMemcpy2DAsync(d, 64, h, 64, 64, 4, cudaMemcpyHostToDevice);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpy2DAsync' on the legacy default stream inside a loop
    // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpy2DAsync' on the default stream inside a loop
  } while (++i < n);
  for (int size : sizes)
    cudaMemcpyAsync(d, h, size, cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
  // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the default stream inside a loop
}

void driverApiInLoop(CUdeviceptr d, void *h, int n) {
  for (int i = 0; i < n; ++i)
    cuMemcpyHtoDAsync(d, h, 64, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cuMemcpyHtoDAsync' on the legacy default stream inside a loop
  // PER-THREAD: :[[@LINE-2]]:5: warning: 'cuMemcpyHtoDAsync' on the default stream inside a loop queues every iteration's work on one stream
}

// ---------------------------------------------------------------------------
// Kernels on the legacy default stream in a loop that transfers.

void kernelInTransferLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    kernel<<<1, 256>>>(d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream inside a loop that issues asynchronous transfers waits for all earlier work on the device and holds back all later work, so nothing overlaps; create streams and pass them (or use cudaStreamPerThread)
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the loop issues asynchronous transfers here
    // PER-THREAD: :[[@LINE-3]]:5: warning: kernel launch on the default stream inside a loop that issues asynchronous transfers queues every iteration's work on one stream
    // PER-THREAD: :[[@LINE-5]]:5: note: the loop issues asynchronous transfers here
    kernel<<<1, 256, 0, 0>>>(d);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream inside a loop that issues asynchronous transfers
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: the loop issues asynchronous transfers here
    // PER-THREAD: :[[@LINE-3]]:5: warning: kernel launch on the default stream inside a loop that issues asynchronous transfers
    // PER-THREAD: :[[@LINE-10]]:5: note: the loop issues asynchronous transfers here
  }
}

// ---------------------------------------------------------------------------
// Launches through the launch API rather than <<<...>>>.

void launchApiInTransferLoop(float *d, float *h, int n, cudaStream_t s) {
  void *args[] = {&d};
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    cudaLaunchKernel((const void *)kernel, dim3(1), dim3(256), args, 0, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaLaunchKernel' on the legacy default stream inside a loop that issues asynchronous transfers waits for all earlier work on the device and holds back all later work, so nothing overlaps; create streams and pass them (or use cudaStreamPerThread)
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: the loop issues asynchronous transfers here
    // PER-THREAD: :[[@LINE-3]]:5: warning: 'cudaLaunchKernel' on the default stream inside a loop that issues asynchronous transfers queues every iteration's work on one stream
    // PER-THREAD: :[[@LINE-5]]:5: note: the loop issues asynchronous transfers here
  }
}

void driverLaunchBesideCreatedStream(CUfunction f, CUdeviceptr d, void *h) {
  CUstream s;
  cuStreamCreate(&s, 0);
  cuMemcpyHtoDAsync(d, h, 64, s);
  cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, 0, nullptr, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuLaunchKernel' on the legacy default stream in a function that also uses created streams synchronizes with all of them and serializes the pipeline; pass a created stream (or cudaStreamPerThread)
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: work is issued on a created stream here
}

// The launch API on created streams, and outside any transferring loop.
void launchApiOnCreatedStreams(float *d, float *h, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  void *args[] = {&d};
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    cudaLaunchKernel((const void *)kernel, dim3(1), dim3(256), args, 0, s);
  }
}

void launchApiAlone(float *d, int n) {
  void *args[] = {&d};
  for (int i = 0; i < n; ++i)
    cudaLaunchKernel((const void *)kernel, dim3(1), dim3(256), args, 0, 0);
}

// ---------------------------------------------------------------------------
// The legacy stream beside created streams.

void besideCreatedStreams(float *d, float *h) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  kernel<<<1, 256>>>(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on the legacy default stream in a function that also uses created streams synchronizes with all of them and serializes the pipeline; pass a created stream (or cudaStreamPerThread)
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: work is issued on a created stream here
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' on the legacy default stream in a function that also uses created streams
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: work is issued on a created stream here
  cudaStreamSynchronize(s);
}

void besideStreamArray(float *d, float *h) {
  cudaStream_t streams[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreate(&streams[i]);
  kernel<<<1, 32, 0, streams[0]>>>(d);
  cudaMemsetAsync(d, 0, 64, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' on the legacy default stream in a function that also uses created streams
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: work is issued on a created stream here
}

// cudaStreamLegacy is the legacy stream in every compile mode.
void explicitLegacyBesideCreated(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, cudaStreamLegacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' on the legacy default stream in a function that also uses created streams
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: work is issued on a created stream here
  // PER-THREAD: :[[@LINE-3]]:3: warning: 'cudaMemcpyAsync' on the legacy default stream in a function that also uses created streams
  // PER-THREAD: :[[@LINE-5]]:3: note: work is issued on a created stream here
}

template <typename T> void templateLoop(T *d, T *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' on the legacy default stream inside a loop
  // PER-THREAD: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' on the default stream inside a loop
}
template void templateLoop<float>(float *, float *, int);
template void templateLoop<int>(int *, int *, int);

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

// Kernel-only loops on the default stream.
void kernelOnlyLoop(float *d, int n) {
  for (int i = 0; i < n; ++i)
    kernel<<<1, 256>>>(d);
  cudaDeviceSynchronize();
}

// A lone transfer outside any loop, with no created stream around.
void loneTransfer(float *d, float *h) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
  kernel<<<1, 256>>>(d);
  cudaDeviceSynchronize();
}

// cudaStreamPerThread is a choice, not the legacy stream.
void perThreadStream(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, cudaStreamPerThread);
    kernel<<<1, 256, 0, cudaStreamPerThread>>>(d);
  }
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// Created streams everywhere.
void createdStreams(float *d, float *h, int n) {
  cudaStream_t streams[4];
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, streams[i % 4]);
    kernel<<<1, 256, 0, streams[i % 4]>>>(d);
  }
}

// Blocking copies are not async operations.
void blockingCopiesInLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, h, 1024, cudaMemcpyHostToDevice);
}

// A kernel in a loop whose transfers are outside it.
void transfersOutsideTheKernelLoop(float *d, float *h, int n) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, 0);
  for (int i = 0; i < n; ++i)
    kernel<<<1, 256>>>(d);
}

// A lambda in a loop is a function of its own.
void lambdaInLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    auto upload = [=] { cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, 0); };
    (void)upload;
  }
}

// The stream is a parameter: it may be a created one.
void streamParameter(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// A macro's do { } while (0) is no loop.
#define UPLOAD(d, h) do { cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, 0); } while (0)
void macroLoop(float *d, float *h) { UPLOAD(d, h); }

template <typename T> void neverInstantiated(T *d, T *h, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice);
}
