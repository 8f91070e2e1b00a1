// A ring of events: the loop records one element and waits on the next,
// recorded an iteration earlier. That wait does not cover the copy the
// element just recorded covers (gpu-burn's error counter).
// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <cuda_runtime.h>

void consume(float v);
bool running();

// The copy of this iteration is read after waiting on the previous
// iteration's event.
void counterRing(float *d, float *h, cudaStream_t s) {
  const int depth = 2;
  cudaEvent_t ev[depth];
  int slot = 0;
  while (running()) {
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[slot], s);
    slot = ++slot % depth;
    cudaEventSynchronize(ev[slot]);
    consume(*h);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '*h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-7]]:54: note: on stream 's', not synchronized before the access
  }
}

// The same ring polled, with '(slot + 1) % 2' and 'slot ^= 1'.
void polledRing(float *d, float *h, cudaStream_t s) {
  cudaEvent_t ev[2];
  int slot = 0;
  for (int i = 0; i < 100; ++i) {
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[slot], s);
    slot ^= 1;
    while (cudaEventQuery(ev[slot]) == cudaErrorNotReady) {
    }
    consume(*h);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '*h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-8]]:54: note: on stream 's', not synchronized before the access
  }
}

// Double buffering done right: the host reads the half the element it
// waits on covers, not the one just issued.
void doubleBuffered(float *d, float *h[2], cudaStream_t s) {
  cudaEvent_t ev[2];
  int cur = 0;
  for (int i = 0; i < 100; ++i) {
    cudaMemcpyAsync(h[cur], d, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[cur], s);
    cur = (cur + 1) % 2;
    cudaEventSynchronize(ev[cur]);
    consume(h[cur][0]);
  }
  cudaDeviceSynchronize();
}

// Waiting on the element just recorded, before moving on.
void waitThenMove(float *d, float *h, cudaStream_t s) {
  cudaEvent_t ev[2];
  int slot = 0;
  for (int i = 0; i < 100; ++i) {
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(ev[slot], s);
    cudaEventSynchronize(ev[slot]);
    slot = (slot + 1) % 2;
    consume(*h);
  }
}

// A loop's index reset and counted up again may name the recorded element:
// the drain loop's waits cover the copies.
void drainLoop(float *d, float *h, cudaStream_t *s, int n) {
  cudaEvent_t ev[8];
  int i;
  for (i = 0; i < n; ++i) {
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s[i]);
    cudaEventRecord(ev[i], s[i]);
  }
  for (i = 0; i < n; ++i)
    cudaEventSynchronize(ev[i]);
  consume(h[0]);
}

// Chunks copied in a loop, each covered by the event recorded after it:
// the chunk a copy wrote is an earlier one once the index moves on, still
// covered by that event.
void chunksThenEvent(float *d, float *h, cudaStream_t s) {
  cudaEvent_t done;
  for (int i = 0; i < 8; ++i) {
    cudaMemcpyAsync(h + i, d + i, 4, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(done, s);
  }
  cudaEventSynchronize(done);
  consume(h[0]);
}

// Two advances of a ring of two name the recorded element again; so may a
// ring whose size is not a constant.
void twiceAround(float *d, float *h, cudaStream_t s, int depth) {
  cudaEvent_t ev[2];
  int slot = 0;
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(ev[slot], s);
  slot ^= 1;
  slot ^= 1;
  cudaEventSynchronize(ev[slot]);
  consume(*h);
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(ev[slot], s);
  slot = (slot + 1) % depth;
  cudaEventSynchronize(ev[slot]);
  consume(*h);
}

// ---------------------------------------------------------------------------
// Rings of pinned staging buffers: a slot is refilled a turn after its copy
// was issued, and must be waited for first (its own event, a stream or
// device sync). The slot the index names after one move is another one.

#include <string.h>

// Defined in another unit; its signature says it writes 'dst'.
void fill_chunk(void *dst, const void *src, size_t bytes);

static float *staging[2];
static cudaEvent_t staged[2];
static cudaStream_t upload;

// The slot is refilled before the wait on its event (the issue's ring):
// the copy issued from it two iterations ago may still be reading it.
void refillBeforeWait(float *d, const float *src, size_t n, int chunks) {
  int i = 0;
  for (int c = 0; c < chunks; ++c) {
    fill_chunk(staging[i], src + c * n, n * sizeof(float));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'staging[i]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 'upload'; wait for it first with cudaStreamSynchronize(upload) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE+3]]:45: note: on stream 'upload', not synchronized before the access
    cudaEventSynchronize(staged[i]);
    cudaMemcpyAsync(d + c * n, staging[i], n * sizeof(float),
                    cudaMemcpyHostToDevice, upload);
    cudaEventRecord(staged[i], upload);
    i = 1 - i;
  }
  cudaStreamSynchronize(upload);
}

// The same ring waiting on the slot's event before refilling it.
void waitBeforeRefill(float *d, const float *src, size_t n, int chunks) {
  int i = 0;
  for (int c = 0; c < chunks; ++c) {
    cudaEventSynchronize(staged[i]);
    fill_chunk(staging[i], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, staging[i], n * sizeof(float),
                    cudaMemcpyHostToDevice, upload);
    cudaEventRecord(staged[i], upload);
    i = 1 - i;
  }
  cudaStreamSynchronize(upload);
}

// Recorded, moved on, then the wait on the slot about to be refilled: the
// event recorded for it a turn earlier.
void waitOnNextSlot(float *d, const float *src, size_t n, int chunks) {
  int i = 0;
  for (int c = 0; c < chunks; ++c) {
    memcpy(staging[i], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, staging[i], n * sizeof(float),
                    cudaMemcpyHostToDevice, upload);
    cudaEventRecord(staged[i], upload);
    i = (i + 1) % 2;
    cudaEventSynchronize(staged[i]);
  }
  cudaStreamSynchronize(upload);
}

// The Handbook's staging ring (pageableMemcpyHtoD.cu): each iteration
// records the other slot's event, so the wait after the move is on the
// event just recorded, which covers every earlier copy on the stream.
void recordOtherSlot(float *d, const float *src, size_t n, int chunks) {
  int i = 0;
  for (int c = 0; c < chunks; ++c) {
    cudaEventSynchronize(staged[i]);
    memcpy(staging[i], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, staging[i], n * sizeof(float),
                    cudaMemcpyHostToDevice, NULL);
    cudaEventRecord(staged[1 - i], NULL);
    i = 1 - i;
  }
  cudaDeviceSynchronize();
}

// The same ring waiting, after the move, through the index it recorded
// with: that names the other slot, recorded a copy earlier.
void recordOtherSlotWaitStale(float *d, const float *src, size_t n,
                              int chunks) {
  int i = 0;
  for (int c = 0; c < chunks; ++c) {
    memcpy(staging[i], src + c * n, n * sizeof(float));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'staging[i]' is written while 'cudaMemcpyAsync' from it may still be in flight on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the asynchronous copy is issued here
    cudaMemcpyAsync(d + c * n, staging[i], n * sizeof(float),
                    cudaMemcpyHostToDevice, NULL);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: note: on the legacy default stream, not synchronized before the access
    cudaEventRecord(staged[1 - i], NULL);
    i = 1 - i;
    cudaEventSynchronize(staged[1 - i]);
  }
  cudaDeviceSynchronize();
}

// A ring indexed by the loop's counter, with no wait in the loop.
void counterRingNoWait(float *d, const float *src, size_t n, int chunks,
                       cudaStream_t s) {
  float *h[2];
  for (int k = 0; k < 2; ++k)
    cudaMallocHost(&h[k], n * sizeof(float));
  for (int c = 0; c < chunks; ++c) {
    memcpy(h[c % 2], src + c * n, n * sizeof(float));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h[c % 2]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the asynchronous copy is issued here
    cudaMemcpyAsync(d + c * n, h[c % 2], n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:45: note: on stream 's', not synchronized before the access
  }
  cudaStreamSynchronize(s);
}

// The same ring with the slot's own event waited for first.
void counterRingWaited(float *d, const float *src, size_t n, int chunks,
                       cudaStream_t s) {
  float *h[2];
  cudaEvent_t ev[2];
  for (int k = 0; k < 2; ++k) {
    cudaMallocHost(&h[k], n * sizeof(float));
    cudaEventCreate(&ev[k]);
  }
  for (int c = 0; c < chunks; ++c) {
    cudaEventSynchronize(ev[c % 2]);
    memcpy(h[c % 2], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, h[c % 2], n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    cudaEventRecord(ev[c % 2], s);
  }
  cudaStreamSynchronize(s);
}

// A ring of three waiting on the slot's event first; one whose stream is
// synchronized every iteration.
void ringOfThree(float *d, const float *src, size_t n, int chunks,
                 cudaStream_t s) {
  float *h[3];
  cudaEvent_t ev[3];
  int slot = 0;
  for (int c = 0; c < chunks; ++c) {
    cudaEventSynchronize(ev[slot]);
    memcpy(h[slot], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, h[slot], n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    cudaEventRecord(ev[slot], s);
    slot = (slot + 1) % 3;
  }
  cudaStreamSynchronize(s);
}

void syncedEveryIteration(float *d, const float *src, size_t n, int chunks,
                          cudaStream_t s) {
  float *h[3];
  int slot = 0;
  for (int c = 0; c < chunks; ++c) {
    memcpy(h[slot], src + c * n, n * sizeof(float));
    cudaMemcpyAsync(d + c * n, h[slot], n * sizeof(float),
                    cudaMemcpyHostToDevice, s);
    slot = (slot + 1) % 3;
    cudaStreamSynchronize(s);
  }
}
