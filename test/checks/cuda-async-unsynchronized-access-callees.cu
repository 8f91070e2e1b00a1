// A function copies into (or from) what a pointer parameter points to and
// returns with the copy in flight: its caller's argument is in flight. Both
// front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>
#include <cstdlib>

void consume(float v);

// Returns with the device-to-host copy into 'h' in flight on 's'.
static void download(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}
// The same with external linkage, in this translation unit.
void downloadExternal(float *h, const float *d, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
}
// Returns with the host-to-device copy from 'h' in flight.
void upload(float *d, const float *h, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
}
// Through a second helper.
void downloadVia(float *h, const float *d, size_t n, cudaStream_t s) {
  download(h, d, n, s);
}

// ---------------------------------------------------------------------------
// Reported: the caller touches its buffer before the copy is done.

void readsAfterDownload(const float *d, size_t n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, n * sizeof(float));
  download(h, d, n, s);
  consume(h[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :14:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

void readsAfterExternalDownload(const float *d, float *pinned, size_t n,
                                cudaStream_t s) {
  downloadExternal(pinned, d, n, s);
  consume(pinned[1]);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'pinned[1]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :18:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:34: note: on stream 's', not synchronized before the access
}

void writesDuringUpload(float *d, float *pinned, size_t n, cudaStream_t s) {
  upload(d, pinned, n, s);
  pinned[0] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pinned[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :22:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:24: note: on stream 's', not synchronized before the access
}

void readsAfterTwoLevels(const float *d, float *pinned, size_t n,
                         cudaStream_t s) {
  downloadVia(pinned, d, n, s);
  consume(*pinned);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '*pinned' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :14:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: on stream 's', not synchronized before the access
}

// ---------------------------------------------------------------------------
// Not reported.

void waitsFirst(const float *d, float *pinned, size_t n, cudaStream_t s) {
  download(pinned, d, n, s);
  cudaStreamSynchronize(s);
  consume(pinned[0]);
}

// The helper waits before it returns.
static void downloadAndWait(float *h, const float *d, size_t n,
                            cudaStream_t s) {
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}
void helperWaits(const float *d, float *pinned, size_t n, cudaStream_t s) {
  downloadAndWait(pinned, d, n, s);
  consume(pinned[0]);
}

// Reading what the device only reads.
void readsDuringUpload(float *d, float *pinned, size_t n, cudaStream_t s) {
  upload(d, pinned, n, s);
  consume(pinned[0]);
  cudaStreamSynchronize(s);
}

// A slice of the parameter: which part the caller touches next is not
// known.
static void downloadSecondHalf(float *h, const float *d, size_t n,
                               cudaStream_t s) {
  cudaMemcpyAsync(h + n / 2, d, n / 2 * sizeof(float), cudaMemcpyDeviceToHost,
                  s);
}
void readsFirstHalf(const float *d, float *pinned, size_t n, cudaStream_t s) {
  downloadSecondHalf(pinned, d, n, s);
  consume(pinned[0]);
  cudaStreamSynchronize(s);
}

// Pageable memory: the copy is staged and synchronous (pageable-copy's
// finding, not a race).
void pageable(const float *d, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n * sizeof(float));
  downloadExternal(h, d, n, s);
  consume(h[0]);
  free(h);
}

// Another buffer than the one in flight.
void readsAnotherBuffer(const float *d, float *pinned, float *other, size_t n,
                        cudaStream_t s) {
  download(pinned, d, n, s);
  consume(other[0]);
  cudaStreamSynchronize(s);
}

// Handing the buffer to a helper that only enqueues work on it is no host
// access: the helper's copy follows the previous one on the stream (timing
// runs of a pricer that copies its result back at the end).
void repeatedRuns(const float *d, float *pinned, size_t n, cudaStream_t s,
                  int runs) {
  for (int r = 0; r < runs; ++r)
    download(pinned, d, n, s);
  cudaStreamSynchronize(s);
  consume(pinned[0]);
}

// A helper that reads the buffer on the host does touch it.
static float firstOf(const float *h) { return h[0]; }
void helperReads(const float *d, float *pinned, size_t n, cudaStream_t s) {
  download(pinned, d, n, s);
  consume(firstOf(pinned));
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'pinned' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :14:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :139:47: note: 'h[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-5]]:26: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// A check that aborts right after the copy leaves it in flight only on a
// path that never returns to the caller.
#define VERIFY(call)                                                           \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      abort();                                                                 \
  } while (0)
static void downloadVerified(float *h, const float *d, size_t n,
                             cudaStream_t s) {
  VERIFY(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  cudaStreamSynchronize(s);
}
void readsAfterVerifiedDownload(const float *d, float *pinned, size_t n,
                                cudaStream_t s) {
  downloadVerified(pinned, d, n, s);
  consume(pinned[0]);
}
