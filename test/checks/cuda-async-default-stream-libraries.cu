// A GPU library's work on created streams is held back by legacy-stream
// work as a kernel on them is. Any other warning or note fails.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-default-stream' %s | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-default-stream' %s -- %toolkit_args | %check_messages %s

#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

__global__ void scale(float *x) {}

// A legacy kernel between the batches' cuBLAS calls on their streams.
void legacyBetweenBatches(cublasHandle_t h, cudaStream_t *streams,
                          const float *A, const float *B, float *C, int n) {
  const float one = 1.0f, zero = 0.0f;
  for (int i = 0; i < 4; ++i) {
    cublasSetStream(h, streams[i]);
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero,
                C + i * n * n, n);
    scale<<<1, 256>>>(C);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: work on a created stream issued here waits for it
  }
  cudaDeviceSynchronize();
}

// NCCL given the stream.
void legacyBeforeAllReduce(ncclComm_t comm, cudaStream_t s, float *buf,
                           float *sum, size_t count) {
  scale<<<1, 256>>>(buf);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on the legacy default stream
  ncclAllReduce(sum, sum, count, ncclFloat, ncclSum, comm, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: work on a created stream issued here waits for it
  cudaStreamSynchronize(s);
}

// The allreduce reads what the legacy kernel wrote: it must wait anyway.
void legacyFeedsAllReduce(ncclComm_t comm, cudaStream_t s, float *buf,
                          size_t count) {
  scale<<<1, 256>>>(buf);
  ncclAllReduce(buf, buf, count, ncclFloat, ncclSum, comm, s);
  cudaStreamSynchronize(s);
}

// A final join after the library work holds nothing back.
void finalJoin(cublasHandle_t h, cudaStream_t s, const float *x, float *y,
               int n) {
  const float alpha = 2.0f;
  cublasSetStream(h, s);
  cublasSaxpy(h, n, &alpha, x, 1, y, 1);
  scale<<<1, 256>>>(y);
  cudaDeviceSynchronize();
}

// A handle bound nowhere in the function: its stream is not known.
void unboundHandle(cublasHandle_t h, const float *x, float *y, int n) {
  const float alpha = 2.0f;
  scale<<<1, 256>>>(y);
  cublasSaxpy(h, n, &alpha, x, 1, y, 1);
  cudaDeviceSynchronize();
}

// A handle the code binds to the legacy stream: its work is legacy work.
void handleBoundToLegacy(cublasHandle_t h, cudaStream_t s, const float *x,
                         float *y, float *z, int n) {
  const float alpha = 2.0f;
  cublasSetStream(h, 0);
  cublasSaxpy(h, n, &alpha, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cublasSaxpy' on the legacy default stream waits for all earlier work on the device
  scale<<<1, 256, 0, s>>>(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: work on a created stream issued here waits for it
  cudaStreamSynchronize(s);
}

// The same binding, then work on the created stream that reads what the
// library wrote: it must wait for it anyway (the dependency rule).
void handleBoundToLegacyFeeds(cublasHandle_t h, cudaStream_t s,
                              const float *x, float *y, int n) {
  const float alpha = 2.0f;
  cublasSetStream(h, 0);
  cublasSaxpy(h, n, &alpha, x, 1, y, 1);
  scale<<<1, 256, 0, s>>>(y);
  cudaStreamSynchronize(s);
}

// A graph launched on the legacy stream is the unit's own work.
void graphOnLegacy(cudaGraphExec_t g, cudaStream_t s, float *z) {
  cudaGraphLaunch(g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGraphLaunch' on the legacy default stream waits for all earlier work on the device
  scale<<<1, 256, 0, s>>>(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: work on a created stream issued here waits for it
  cudaStreamSynchronize(s);
}

// CUB's stream left to its default is not the code's choice of the legacy
// stream: not reported (precision first), unlike one written out.
void cubDefaultStream(void *temp, size_t bytes, const float *in, float *out,
                      int n, cudaStream_t s, float *z) {
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  scale<<<1, 256, 0, s>>>(z);
  cudaStreamSynchronize(s);
}

void cubLegacyStream(void *temp, size_t bytes, const float *in, float *out,
                     int n, cudaStream_t s, float *z) {
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'Sum' on the legacy default stream waits for all earlier work on the device
  scale<<<1, 256, 0, s>>>(z);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: work on a created stream issued here waits for it
  cudaStreamSynchronize(s);
}
