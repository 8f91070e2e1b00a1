// Thrust's algorithms take their stream in the execution policy
// ('thrust::cuda::par.on(s)'): work on that stream, which a synchronizing
// policy waits for before the call returns, and 'par_nosync' leaves in
// flight. Any other warning or note fails.
// REQUIRES: cuda-toolkit
// RUN: not %lint_toolkit --checks='-*,cuda-async-sync-in-loop,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy_toolkit --checks='-*,cuda-async-sync-in-loop,cuda-async-unsynchronized-access' %s -- %toolkit_args | %check_messages %s

#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/device_ptr.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

__global__ void scale(float *x) {}

// Each batch's upload, then its sort on the other stream; the wait for the
// upload holds back the sort, which does not take the uploaded buffer.
void uploadWaitedBeforeSort(float *h, float *d[2], float *pinned[2],
                            cudaStream_t streams[2], int batches, int n) {
  for (int i = 0; i < batches; ++i) {
    cudaMemcpyAsync(d[1], pinned[1], n * sizeof(float), cudaMemcpyHostToDevice,
                    streams[1]);
    cudaStreamSynchronize(streams[1]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
    thrust::sort(thrust::cuda::par.on(streams[0]), d[0], d[0] + n);
    cudaDeviceSynchronize();
    cudaMemcpyAsync(pinned[0], d[0], n * sizeof(float), cudaMemcpyDeviceToHost,
                    streams[0]);
  }
}

// Thrust's par.on(s) returns once the stream's work is done: the wait after
// it waits for nothing.
void sortThenWait(float *d[4], cudaStream_t s[4], int n) {
  for (int i = 0; i < 4; ++i) {
    scale<<<1, 256, 0, s[i]>>>(d[i]);
    thrust::sort(thrust::cuda::par.on(s[i]), d[i], d[i] + n);
    cudaStreamSynchronize(s[i]);
  }
}

// A synchronizing sort waits for its own stream, not for another element
// of the same array of streams: the upload is still in flight at the wait.
void sortOnTheOtherStream(float *d[2], float *pinned, cudaStream_t streams[2],
                          int batches, int n) {
  for (int i = 0; i < batches; ++i) {
    cudaMemcpyAsync(d[1], pinned, n * sizeof(float), cudaMemcpyHostToDevice,
                    streams[1]);
    thrust::sort(thrust::cuda::par.on(streams[0]), d[0], d[0] + n);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
    scale<<<1, 256, 0, streams[1]>>>(d[1]);
  }
}

// par_nosync.on(s) leaves its work in flight: the wait is for it.
void fillThenWait(float *d[4], cudaStream_t s[4], int n) {
  for (int i = 0; i < 4; ++i) {
    thrust::fill(thrust::cuda::par_nosync.on(s[i]), d[i], d[i] + n, 0.f);
    scale<<<1, 256, 0, s[i]>>>(d[i]);
    cudaStreamSynchronize(s[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// The sort takes device_ptr iterators: which buffer they wrap is not
// followed, so the wait may be the join the sort needs.
void devicePtrSortAfterWait(float *d[2], float *pinned, cudaStream_t st[2],
                            int batches, int n) {
  thrust::device_ptr<float> p = thrust::device_pointer_cast(d[0]);
  for (int i = 0; i < batches; ++i) {
    cudaMemcpyAsync(d[1], pinned, n * sizeof(float), cudaMemcpyHostToDevice,
                    st[1]);
    cudaStreamSynchronize(st[1]);
    thrust::sort(thrust::cuda::par.on(st[0]), p, p + n);
    cudaDeviceSynchronize();
  }
}

// A download read after a synchronizing Thrust call on its stream.
float readAfterSort(float *d, float *pinned, cudaStream_t s, int n) {
  cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  thrust::sort(thrust::cuda::par.on(s), d, d + n);
  return pinned[0];
}

float readAfterNoSync(float *d, float *pinned, cudaStream_t s, int n) {
  cudaMemcpyAsync(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  thrust::sort(thrust::cuda::par_nosync.on(s), d, d + n);
  return pinned[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'pinned[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:73: note: on stream 's', not synchronized before the access
}

// A functor is no buffer: the transform takes the pointers it is given, a
// GPU's own each iteration, so the wait holds back the next GPU's work
// (CUDASW4's setQuery, waited per GPU).
struct Negate {
  __host__ __device__ float operator()(float x) const { return -x; }
};

void transformThenWait(float *d[4], cudaStream_t s[4], int n) {
  for (int i = 0; i < 4; ++i) {
    cudaMemsetAsync(d[i], 0, n * sizeof(float), s[i]);
    thrust::transform(thrust::cuda::par_nosync.on(s[i]), d[i], d[i] + n, d[i],
                      Negate{});
    cudaStreamSynchronize(s[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
  }
}
