// A copy whose own status reports failure enqueued nothing: on that
// branch (an error-checking macro's return, 'if (err) { ... }') nothing it
// issued is in flight. The other branch, other calls' failures and a
// status variable given another call's result still have it in flight.
// Both front-ends, one set of expectations; any other warning or note
// fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>

enum class Status { Success, Error };

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      return Status::Error;                                                    \
  } while (0)

void consume(char v);

// Returns with the copy waited for, or failed and never enqueued.
static Status download(char *out, const char *d, size_t n, cudaStream_t s) {
  CHECK(cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  return Status::Success;
}

// ---------------------------------------------------------------------------
// Not reported.

Status readsAfterCheckedDownload(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  Status St = download(out, d, n, s);
  out[0] = 1;
  cudaFreeHost(out);
  return St;
}

Status touchesOnItsFailure(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  cudaError_t Err = cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s);
  if (Err != cudaSuccess) {
    out[0] = 0;
    cudaFreeHost(out);
    return Status::Error;
  }
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
  return Status::Success;
}

void testsTheCallItself(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  if (cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s))
    out[0] = 0;
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
}

// ---------------------------------------------------------------------------
// Reported.

Status readsAfterUnwaitedCheck(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  CHECK(cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s));
  consume(out[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'out[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:60: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
  return Status::Success;
}

void touchesOnItsSuccess(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  cudaError_t Err = cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s);
  if (Err == cudaSuccess)
    out[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'out[0]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:72: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
}

void touchesOnAnotherCallsFailure(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s);
  if (cudaGetLastError() != cudaSuccess)
    out[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'out[0]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:54: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
}

void statusOfALaterCopy(char *d, const char *d2, size_t n, cudaStream_t s) {
  char *out, *in;
  cudaMallocHost(&out, n);
  cudaMallocHost(&in, n);
  cudaError_t Err = cudaMemcpyAsync(out, d2, n, cudaMemcpyDeviceToHost, s);
  Err = cudaMemcpyAsync(d, in, n, cudaMemcpyHostToDevice, s);
  if (Err != cudaSuccess)
    out[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'out[0]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:21: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:73: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
  cudaFreeHost(in);
}

void anEarlierCopyOfTheSameBuffer(const char *d, size_t n, cudaStream_t s) {
  char *out;
  cudaMallocHost(&out, n);
  cudaMemcpyAsync(out, d, n, cudaMemcpyDeviceToHost, s);
  if (cudaMemcpyAsync(out + 1, d, 1, cudaMemcpyDeviceToHost, s) != cudaSuccess)
    out[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'out[0]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:54: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(out);
}
