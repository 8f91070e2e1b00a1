// Dispatch chains (generated code: a branch per mode, each copying): a path
// keeps few facts and few transfers of one buffer however long the chain
// (docs/benchmarks.md, "Control-flow shapes that are not loops"), and what
// it keeps still says what a path needs. Any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>

void consume(float v);

// Thirty branches each download into 'h': read before the wait, one
// finding (naming one of the copies); after the wait, nothing.
void chain(float *d, cudaStream_t s, int mode) {
  float *h;
  cudaMallocHost(&h, 64 * sizeof(float));
  if (mode == 0)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 1)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 2)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 3)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 4)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 5)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 6)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 7)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 8)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 9)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 10)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 11)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 12)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 13)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 14)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 15)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 16)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 17)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 18)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 19)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 20)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 21)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 22)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 23)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 24)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 25)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 26)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 27)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 28)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  else if (mode == 29)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  consume(h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :{{[0-9]+}}:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :{{[0-9]+}}:71: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  consume(h[1]);
  cudaFreeHost(h);
}

// A copy and its wait guarded by one flag, a long chain on another
// variable between them: the flag's fact survives the chain's, and the path
// that copies also waits.
void correlated(float *d, cudaStream_t s, int mode, bool async) {
  float *h;
  cudaMallocHost(&h, 64 * sizeof(float));
  if (async)
    cudaMemcpyAsync(h, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, s);
  if (mode == 0)
    consume(1.0f);
  else if (mode == 1)
    consume(1.0f);
  else if (mode == 2)
    consume(1.0f);
  else if (mode == 3)
    consume(1.0f);
  else if (mode == 4)
    consume(1.0f);
  else if (mode == 5)
    consume(1.0f);
  else if (mode == 6)
    consume(1.0f);
  else if (mode == 7)
    consume(1.0f);
  else if (mode == 8)
    consume(1.0f);
  else if (mode == 9)
    consume(1.0f);
  else if (mode == 10)
    consume(1.0f);
  else if (mode == 11)
    consume(1.0f);
  else if (mode == 12)
    consume(1.0f);
  else if (mode == 13)
    consume(1.0f);
  else if (mode == 14)
    consume(1.0f);
  else if (mode == 15)
    consume(1.0f);
  else if (mode == 16)
    consume(1.0f);
  else if (mode == 17)
    consume(1.0f);
  else if (mode == 18)
    consume(1.0f);
  else if (mode == 19)
    consume(1.0f);
  else if (mode == 20)
    consume(1.0f);
  else if (mode == 21)
    consume(1.0f);
  else if (mode == 22)
    consume(1.0f);
  else if (mode == 23)
    consume(1.0f);
  else if (mode == 24)
    consume(1.0f);
  else if (mode == 25)
    consume(1.0f);
  else if (mode == 26)
    consume(1.0f);
  else if (mode == 27)
    consume(1.0f);
  else if (mode == 28)
    consume(1.0f);
  else if (mode == 29)
    consume(1.0f);
  if (async)
    cudaStreamSynchronize(s);
  consume(h[0]);
  cudaFreeHost(h);
}

// A kernel picked by a switch before a timing loop and again in it
// (cuda-samples' globalToShmemAsyncCopy): the paths the first switch leaves
// and those each iteration adds are more than a state keeps apart, so the
// loop head's state is bounded. The analysis settles (a bounded join that
// is not monotone once kept the loop from settling, and the function went
// unanalysed): the result read after waiting only for the other stream is
// reported; read after its own wait, nothing.
template <int N> __global__ void k0(float *c) { c[threadIdx.x] = N; }
template <int N> __global__ void k1(float *c) { c[threadIdx.x] = N + 1; }
template <int N> __global__ void k2(float *c) { c[threadIdx.x] = N + 2; }
template <int N> __global__ void k3(float *c) { c[threadIdx.x] = N + 3; }
template <int N> __global__ void k4(float *c) { c[threadIdx.x] = N + 4; }

#define PICK(n, s)                                                             \
  switch (n) {                                                                 \
  case 0:                                                                      \
  default:                                                                     \
    k0<16><<<1, 32, 0, s>>>(d);                                                \
    break;                                                                     \
  case 1:                                                                      \
    k1<16><<<1, 32, 0, s>>>(d);                                                \
    break;                                                                     \
  case 2:                                                                      \
    k2<16><<<1, 32, 0, s>>>(d);                                                \
    break;                                                                     \
  case 3:                                                                      \
    k3<16><<<1, 32, 0, s>>>(d);                                                \
    break;                                                                     \
  case 4:                                                                      \
    k4<16><<<1, 32, 0, s>>>(d);                                                \
    break;                                                                     \
  }

void timedKernels(int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float *h, *d;
  cudaMallocHost(&h, 32 * sizeof(float));
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemsetAsync(d, 0, 32 * sizeof(float), s);
  PICK(n, s)
  cudaStreamSynchronize(s);
  cudaEventRecord(start, s);
  for (int j = 0; j < 100; j++) {
    PICK(n, s)
  }
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(s);
  for (int i = 0; i < 32; i++)
    consume(h[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[i]' is read while 'cudaMemcpyAsync' into it may still be in flight on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:69: note: on the legacy default stream, not synchronized before the access
  cudaFreeHost(h);
}

void timedKernelsWaited(int n) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float *h, *d;
  cudaMallocHost(&h, 32 * sizeof(float));
  cudaMalloc(&d, 32 * sizeof(float));
  cudaMemsetAsync(d, 0, 32 * sizeof(float), s);
  PICK(n, s)
  cudaStreamSynchronize(s);
  cudaEventRecord(start, s);
  for (int j = 0; j < 100; j++) {
    PICK(n, s)
  }
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  cudaMemcpyAsync(h, d, 32 * sizeof(float), cudaMemcpyDeviceToHost, 0);
  cudaStreamSynchronize(0);
  for (int i = 0; i < 32; i++)
    consume(h[i]);
  cudaFreeHost(h);
}
