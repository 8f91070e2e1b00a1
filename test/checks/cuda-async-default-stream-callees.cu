// Legacy work and the work it holds back in two functions of the unit: a
// call of one that returns with legacy work in flight is legacy work, a
// call of one that issues created-stream work before it waits is that
// work (learn-cuda's Operator pipeline, cudaGraphsPerfScaling's runDemo).
// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-default-stream' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-default-stream' %s -- %cuda_args | %check_messages %s

#include <cstddef>
#include <cuda.h>

__global__ void kernel(float *x) {}

// One object per batch, each with its own stream; the download on the
// legacy stream is still in flight when 'run' returns, and holds back the
// next object's upload.
class Operator {
  cudaStream_t stream;

public:
  Operator() { cudaStreamCreate(&stream); }
  void run(float *h, float *d, size_t n) {
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, stream);
    kernel<<<1, 1, 0, stream>>>(d);
    cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, 0);
    cudaStreamSynchronize(stream);
  }
  void runAndWait(float *h, float *d, size_t n) {
    run(h, d, n);
    cudaDeviceSynchronize();
  }
};

void pipeline(Operator *ops, float *h, float *d, size_t n, int count) {
  for (int i = 0; i < count; ++i)
    ops[i].run(h + i * n, d + i * n, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'run' returns with work on the legacy default stream still in flight, and the work issued after it on created streams waits for it, so they cannot overlap; issue that work on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
  // CHECK-MESSAGES: :[[@LINE-13]]:5: note: work on the legacy default stream issued here
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: work on a created stream issued here waits for it
  // CHECK-MESSAGES: :[[@LINE-17]]:5: note: the work on a created stream it issues first
  cudaDeviceSynchronize();
}

// A member function that waits for the device before it returns leaves
// nothing in flight.
void pipelineWaited(Operator *ops, float *h, float *d, size_t n, int count) {
  for (int i = 0; i < count; ++i)
    ops[i].runAndWait(h + i * n, d + i * n, n);
}

// One call, then only a wait: nothing is held back.
void once(Operator &op, float *h, float *d, size_t n) {
  op.run(h, d, n);
  cudaDeviceSynchronize();
}

cudaStream_t streams[2];

void demo(float *d) {
  kernel<<<1, 1, 0, streams[0]>>>(d);
  cudaStreamSynchronize(streams[0]);
}

void waitFirst(float *d) {
  cudaDeviceSynchronize();
  kernel<<<1, 1, 0, streams[0]>>>(d);
}

// A warm-up launch on the legacy stream, then a function whose first work
// is on a created stream.
void warmup(float *d, float *e) {
  cudaStreamCreate(&streams[0]);
  kernel<<<1, 1>>>(e);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch on the legacy default stream waits for all earlier work on the device, and the work issued after it on created streams waits for it, so they cannot overlap; issue it on a created stream (or cudaStreamPerThread), with an event where later work depends on it [cuda-async-default-stream]
  demo(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: work on a created stream issued here waits for it
  // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the work on a created stream it issues first
}

// The function waits for the device before its work; the legacy launch
// seeds the buffer the function's work takes (the dependency).
void warmupWaited(float *d, float *e) {
  kernel<<<1, 1>>>(e);
  waitFirst(d);
}

void seeded(float *d) {
  kernel<<<1, 1>>>(d);
  demo(d);
}
