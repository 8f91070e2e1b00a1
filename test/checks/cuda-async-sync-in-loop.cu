// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-sync-in-loop' %s | %check_messages --check-prefix=LEGACY %s
// RUN: %tidy --checks='-*,cuda-async-sync-in-loop' %s -- %cuda_args | %check_messages --check-prefix=LEGACY %s
// Compiled with nvcc --default-stream per-thread: 0 is the per-thread stream,
// and a sync of it waits for nothing else.
// RUN: not %lint_bin --checks='-*,cuda-async-sync-in-loop' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-sync-in-loop' %s -- %cuda_args -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 | %check_messages %s

#include <cuda.h>
#include <vector>

__global__ void process(float *x) {}

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      return;                                                                  \
  } while (0)

// ---------------------------------------------------------------------------
// Waiting for the same iteration's work, in loops whose iterations use
// several streams and could otherwise overlap.

void streamSyncEachIteration(float *d, float *h, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, st[i % 2]);
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, st[i % 2]);
    cudaStreamSynchronize(st[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
  }
}

void deviceSyncEachIteration(float *d, float *h, int n, cudaStream_t *streams) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, streams[i]);
    process<<<1, 256, 0, streams[i]>>>(d);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// Two fixed streams: a copy stream and a compute stream.
void eventOfThisIteration(float *d, float *h, int n, cudaStream_t copy,
                          cudaStream_t compute) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, copy);
    process<<<1, 256, 0, compute>>>(d);
    cudaEventRecord(done, compute);
    cudaEventSynchronize(done);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaEventSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// The note names the operation the wait really waits for: the work since
// the last wait that covered the earlier work.
void waitsOnlyForWorkSinceTheLastWait(float *d, float *other, float *h,
                                      int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaStreamSynchronize(st[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
    cudaMemcpyAsync(h, other, 1024, cudaMemcpyDeviceToHost, st[(i + 1) % 2]);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

void blockingCopyEachIteration(float *d, float *h, float *out, int n,
                               cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, st[i % 2]);
    process<<<1, 256>>>(d);
    cudaMemcpy(out, d, 1024, cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpy' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// The legacy stream waits for every blocking stream; the per-thread stream
// only for itself.
void legacySyncOfBlockingStream(float *d, float *h, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    cudaMemsetAsync(d, 0, 1024, st[i % 2]);
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, st[i % 2]);
    cudaStreamSynchronize(0);
    // LEGACY: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // LEGACY: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

void driverApi(CUdeviceptr d, void *h, void *out, int n, CUstream *s) {
  for (int i = 0; i < n; ++i) {
    cuMemcpyHtoDAsync(d, h, 64, s[i % 2]);
    cuMemcpyDtoHAsync(out, d, 64, s[i % 2]);
    cuStreamSynchronize(s[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cuStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

void syncInMacroAndWhileLoop(float *d, float *h, int n, cudaStream_t *st) {
  int i = 0;
  while (i++ < n) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, st[i % 2]);
    process<<<1, 256, 0, st[i % 2]>>>(d);
    CUDA_CHECK(cudaStreamSynchronize(st[i % 2]));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// A macro spelled 'while (false)' runs its operations once per iteration
// too: the issuing copy inside it counts.
#define UPLOAD(d, h, s)                                                        \
  do {                                                                         \
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);                    \
  } while (false)

void issueInMacroSyncInLoop(float *d, float *h, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    UPLOAD(d, h, st[i % 2]);
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaStreamSynchronize(st[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
    // CHECK-MESSAGES: :[[@LINE-10]]:5: note: expanded from macro 'UPLOAD'
  }
}

void syncInABranch(float *d, float *h, int n, cudaStream_t *st, bool debug) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, st[i % 2]);
    process<<<1, 256, 0, st[i % 2]>>>(d);
    if (debug)
      cudaStreamSynchronize(st[i % 2]);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
  }
}

void innerLoopSyncsItsOwnWork(float *d, float *h, int epochs, int n,
                              cudaStream_t *st) {
  for (int e = 0; e < epochs; ++e)
    for (int i = 0; i < n; ++i) {
      cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, st[i]);
      process<<<1, 256, 0, st[i]>>>(d);
      cudaStreamSynchronize(st[i]);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
      // CHECK-MESSAGES: :[[@LINE-4]]:7: note: it waits for this asynchronous operation
    }
}

template <typename T>
void templateLoop(T *d, T *h, T *out, int n, cudaStream_t up,
                  cudaStream_t down) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice, up);
    cudaMemcpyAsync(out, d, sizeof(T), cudaMemcpyDeviceToHost, down);
    cudaStreamSynchronize(down);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}
template void templateLoop<float>(float *, float *, float *, int,
                                  cudaStream_t, cudaStream_t);
template void templateLoop<int>(int *, int *, int *, int, cudaStream_t,
                                cudaStream_t);

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

// The first wait holds back only work on its own stream before the device
// sync, which waits for everything anyway: it costs no overlap of its own
// (the device sync is the one reported).
void waitBeforeALaterWait(float *d, float *h, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaStreamSynchronize(st[i % 2]);
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, st[i % 2]);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// The sync after the loop.
void syncAfterTheLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
  }
  cudaStreamSynchronize(s);
}

// Double buffering: wait for the previous iteration's event at the top.
void doubleBufferedAtTheTop(float *d, float *h, int n, cudaStream_t s) {
  cudaEvent_t copied;
  cudaEventCreate(&copied);
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      cudaEventSynchronize(copied);
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
    cudaEventRecord(copied, s);
  }
}

// Double buffering: wait for the other buffer's event, recorded last time.
void doubleBufferedOtherEvent(float *d, float **h, int n, cudaStream_t s) {
  cudaEvent_t done[2];
  cudaEventCreate(&done[0]);
  cudaEventCreate(&done[1]);
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h[i % 2], 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
    cudaEventRecord(done[i % 2], s);
    cudaEventSynchronize(done[(i + 1) % 2]);
  }
}

// A ring of events over two streams: the wait is for the other slot's
// event, recorded in the previous iteration (multi-GPU solvers' prev/curr
// norm buffers).
struct NormBuffer {
  float *h;
  cudaEvent_t copyDone;
};
void eventRingOverTwoStreams(float *d, NormBuffer *bufs, int n,
                             cudaStream_t compute, cudaStream_t copy) {
  int prev = 1, curr = 0;
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, compute>>>(d);
    cudaMemcpyAsync(bufs[curr].h, d, 4, cudaMemcpyDeviceToHost, copy);
    cudaEventRecord(bufs[curr].copyDone, copy);
    cudaEventSynchronize(bufs[prev].copyDone);
    int t = prev;
    prev = curr;
    curr = t;
  }
}

// The same element as just recorded: this iteration's copy.
void eventRingSameSlot(float *d, NormBuffer *bufs, int n,
                       cudaStream_t compute, cudaStream_t copy) {
  int curr = 0;
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, compute>>>(d);
    cudaMemcpyAsync(bufs[curr].h, d, 4, cudaMemcpyDeviceToHost, copy);
    cudaEventRecord(bufs[curr].copyDone, copy);
    cudaEventSynchronize(bufs[curr].copyDone);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaEventSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
    curr = 1 - curr;
  }
}

// An epoch-level sync after an inner loop of batches on one stream.
void epochSync(float *d, float *h, int epochs, int n, cudaStream_t stream) {
  for (int e = 0; e < epochs; ++e) {
    for (int i = 0; i < n; ++i) {
      cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, stream);
      process<<<1, 256, 0, stream>>>(d);
    }
    cudaDeviceSynchronize();
  }
}

// A wait at the end of each step of a loop whose step fans its work out
// over streams: the steps cannot overlap.
void fannedOutSteps(float *d, float *h, int steps, int n,
                    cudaStream_t *streams) {
  for (int e = 0; e < steps; ++e) {
    for (int i = 0; i < n; ++i) {
      cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, streams[i]);
      process<<<1, 256, 0, streams[i]>>>(d);
    }
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: it waits for this asynchronous operation
  }
}

// The waits written out, one per stream (stream 0's wait is the first).
void fannedOutStepsWaitedOneByOne(float *d, float *h, int steps,
                                  cudaStream_t *s) {
  for (int e = 0; e < steps; ++e) {
    for (int k = 0; k < 3; ++k) {
      cudaMemcpyAsync(d + k, h + k, 4, cudaMemcpyHostToDevice, s[k]);
      process<<<1, 256, 0, s[k]>>>(d + k);
    }
    cudaStreamSynchronize(s[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:7: note: it waits for this asynchronous operation
    cudaStreamSynchronize(s[1]);
    cudaStreamSynchronize(s[2]);
  }
}

// A convergence loop needs each step's result before it goes on.
void fannedOutUntilConverged(float *d, float *h, float tol, cudaStream_t *s) {
  float residual = 1.0f;
  while (residual > tol) {
    for (int k = 0; k < 3; ++k)
      process<<<1, 256, 0, s[k]>>>(d + k);
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s[0]);
    cudaDeviceSynchronize();
    residual = h[0];
  }
}

// A loop that issues a single async operation.
void singleOperation(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
  }
}

// Waiting for another stream than the one this iteration used.
void waitsForAnotherStream(float *d, float *h, int n, cudaStream_t copy,
                           cudaStream_t compute) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, copy);
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, copy);
    cudaStreamSynchronize(compute);
  }
}

// A stream the analysis cannot identify may be another one.
cudaStream_t nextStream();
void unknownStream(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
    cudaStreamSynchronize(nextStream());
  }
}

// A sync at the top waits for the previous iteration only.
void syncAtTheTop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaStreamSynchronize(s);
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
  }
}

// No loop.
void noLoop(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  process<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
}

// The lambda in the loop is a function of its own.
void lambdaInLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
    auto later = [s] { cudaStreamSynchronize(s); };
    (void)later;
  }
}

template <typename T> void neverInstantiated(T *d, T *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, sizeof(T), cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(h, d, sizeof(T), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
}

// One stream: its work runs in issue order with or without the wait, so
// the iterations could not overlap anyway (cuda-async-default-stream and
// the pipeline's design are the questions there). Timing loops of one
// stream are this case.
void singleStreamLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, s);
    process<<<1, 256, 0, s>>>(d);
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
}

// A stream variable that names another stream each iteration: swapped
// between two created streams at the end of the body (hpc2n's pipeline),
// or declared in the body from an element chosen by the counter.
void swappedStreamVariable(float *d, float *h, int n, cudaStream_t s1,
                           cudaStream_t s2) {
  cudaStream_t stream = s1;
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, stream);
    process<<<1, 256, 0, stream>>>(d);
    if (stream == s1)
      stream = s2;
    else
      stream = s1;
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: it waits for this asynchronous operation
  }
}

void streamVariableFromElementPerIteration(float *d, float *h, int n,
                                           cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    cudaStream_t stream = st[i % 2];
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, stream);
    process<<<1, 256, 0, stream>>>(d);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// The same variable naming one stream in every iteration: a constant
// element, the same stream assigned again, or a value the analysis cannot
// name (precision first).
cudaStream_t nextStream();
void streamVariableOfOneStream(float *d, float *h, int n, cudaStream_t *st,
                               cudaStream_t s1) {
  for (int i = 0; i < n; ++i) {
    cudaStream_t stream = st[0];
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, stream);
    process<<<1, 256, 0, stream>>>(d);
    cudaDeviceSynchronize();
  }
  cudaStream_t again = s1;
  for (int i = 0; i < n; ++i) {
    again = s1;
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, again);
    process<<<1, 256, 0, again>>>(d);
    cudaDeviceSynchronize();
  }
  for (int i = 0; i < n; ++i) {
    cudaStream_t unknown = nextStream();
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, unknown);
    process<<<1, 256, 0, unknown>>>(d);
    cudaDeviceSynchronize();
  }
}

void timingLoopOnTheLegacyStream(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256>>>(d);
    process<<<1, 256, 0>>>(d);
    cudaDeviceSynchronize();
  }
}

// The two arms of an if/else are one launch per iteration, on one stream.
void branchesAreOneOperation(float *d, int n, bool first) {
  for (int i = 0; i < n; ++i) {
    if (first)
      process<<<1, 256>>>(d);
    else
      process<<<2, 256>>>(d);
    cudaDeviceSynchronize();
  }
}

// A device-to-device copy does not wait on the host.
void deviceToDeviceCopyInLoop(float *d, float *d2, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaMemcpy(d2, d, 1024, cudaMemcpyDeviceToDevice);
    cudaMemcpy2D(d2, 64, d, 64, 64, 4, cudaMemcpyDeviceToDevice);
  }
}

// A wait on the path that leaves the loop runs once.
void waitBeforeBreak(float *d, float *h, int n, cudaStream_t *st,
                     bool *converged) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, st[i % 2]);
    process<<<1, 256, 0, st[i % 2]>>>(d);
    if (converged[i]) {
      cudaDeviceSynchronize();
      break;
    }
  }
}

// A convergence loop needs this iteration's result to decide whether to
// go on: the wait is the point.
void convergenceLoop(float *d, float *dResidual, cudaStream_t *st) {
  float residual = 1.0f;
  int i = 0;
  while (residual > 1e-6f) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    process<<<1, 256, 0, st[(i + 1) % 2]>>>(dResidual);
    cudaMemcpyAsync(&residual, dResidual, sizeof(float),
                    cudaMemcpyDeviceToHost, st[(i + 1) % 2]);
    cudaDeviceSynchronize();
    ++i;
  }
}

void convergenceByBlockingCopy(float *d, float *dErr, int max,
                               cudaStream_t *st) {
  for (int i = 0; i < max; ++i) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    process<<<1, 256, 0, st[(i + 1) % 2]>>>(dErr);
    float err;
    cudaMemcpy(&err, dErr, sizeof(float), cudaMemcpyDeviceToHost);
    if (err < 1e-6f)
      break;
  }
}

// Blocking memsets of device memory return before they are done.
void memsetIsNoWait(float *d, int n, cudaStream_t *st) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, st[i % 2]>>>(d);
    cudaMemset(d, 0, 1024);
  }
}

// One element of a std::vector of streams, by a constant index, in every
// iteration (CUDA-ZSTD's download thread): the iterations run in order on
// that one stream anyway, and the wait costs no overlap.
struct VectorStreams {
  std::vector<cudaStream_t> st;
  void downloadOnOne(float *h, float *d, int n);
  void uploadAndProcess(float *h, float *d, int n);
};
void VectorStreams::downloadOnOne(float *h, float *d, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, st[2]);
    cudaStreamSynchronize(st[2]);
  }
}

// Two elements of it, by constant indices: the iterations could overlap.
void VectorStreams::uploadAndProcess(float *h, float *d, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, h + i * 256, 1024, cudaMemcpyHostToDevice, st[0]);
    process<<<1, 256, 0, st[1]>>>(d);
    cudaStreamSynchronize(st[1]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// ---------------------------------------------------------------------------
// Held out from real programs (scripts/injected-bugs.py).

// simpleMultiCopy's cycle with its upload made blocking: a blocking copy runs
// on the legacy stream, which waits for every stream created blocking, so it
// waits for this cycle's kernel.
void blockingUploadInCycle(float **dIn, float **hIn, int nreps) {
  cudaStream_t streams[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < nreps; ++i) {
    process<<<1, 256, 0, streams[i % 2]>>>(dIn[i % 2]);
    cudaMemcpy(dIn[(i + 1) % 2], hIn[(i + 1) % 2], 1024,
               cudaMemcpyHostToDevice);
    // LEGACY: :[[@LINE-2]]:5: warning: 'cudaMemcpy' inside the loop waits for work issued earlier in the same iteration
    // LEGACY: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// Streams created cudaStreamNonBlocking: the blocking copy does not wait for
// them.
void blockingCopyBesideNonBlockingStreams(float **dIn, float **hIn, int n) {
  cudaStream_t streams[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, streams[i % 2]>>>(dIn[i % 2]);
    cudaMemcpy(dIn[(i + 1) % 2], hIn[(i + 1) % 2], 1024,
               cudaMemcpyHostToDevice);
  }
}

// Streams the caller created, with flags not known here: silent.
void blockingCopyBesideCallersStreams(float **dIn, float **hIn, int n,
                                      cudaStream_t *streams) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, streams[i % 2]>>>(dIn[i % 2]);
    cudaMemcpy(dIn[(i + 1) % 2], hIn[(i + 1) % 2], 1024,
               cudaMemcpyHostToDevice);
  }
}

// simpleMultiGPU: a stream per element of an array of plans.
struct GpuPlan {
  cudaStream_t stream;
  float *d, *h;
};
void planStreamSync(GpuPlan *plan, int gpus) {
  for (int i = 0; i < gpus; ++i) {
    cudaMemcpyAsync(plan[i].d, plan[i].h, 1024, cudaMemcpyHostToDevice,
                    plan[i].stream);
    process<<<1, 256, 0, plan[i].stream>>>(plan[i].d);
    cudaStreamSynchronize(plan[i].stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
  }
}

// One plan's stream, reached through a pointer: one stream, silent.
void onePlanStreamSync(GpuPlan *plan, int n) {
  for (int i = 0; i < n; ++i) {
    process<<<1, 256, 0, plan->stream>>>(plan->d);
    cudaStreamSynchronize(plan->stream);
  }
}

// MonteCarloMultiGPU: the work is issued by a function of another
// translation unit given the stream.
void solveOn(GpuPlan *plan, cudaStream_t stream);
void solveOnBoth(GpuPlan *plan, cudaStream_t a, cudaStream_t b);
void opaqueSolverSync(GpuPlan *plan, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    solveOn(&plan[i], streams[i]);
    cudaStreamSynchronize(streams[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// Given two streams, which one it works on is not known: silent.
void opaqueTwoStreamSolverSync(GpuPlan *plan, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    solveOnBoth(&plan[i], streams[i], streams[i + 1]);
    cudaStreamSynchronize(streams[i]);
  }
}

// A helper of this translation unit that issues nothing: silent.
void describe(GpuPlan *plan, cudaStream_t stream) { plan->h = nullptr; }
void knownHelperSync(GpuPlan *plan, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i) {
    describe(&plan[i], streams[i]);
    cudaStreamSynchronize(streams[i]);
  }
}

// A per-stream gather inside the batch loop, after work issued directly in
// it: the batch loop's iterations cannot overlap.
void gatherLoopAfterDirectWork(float *d, float *e, int batches,
                               cudaStream_t *st) {
  for (int b = 0; b < batches; ++b) {
    process<<<1, 256, 0, st[0]>>>(d);
    process<<<1, 256, 0, st[1]>>>(e);
    for (int i = 0; i < 2; ++i)
      cudaStreamSynchronize(st[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: it waits for this asynchronous operation
  }
}

// simpleStreams' copies made blocking after the launch loop, which fans
// out over streams: each rep waits for its own work.
void blockingCopiesAfterLaunchLoop(float *h, float *d, int reps, int n) {
  cudaStream_t st[4];
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&st[i]);
  for (int k = 0; k < reps; ++k) {
    for (int i = 0; i < 4; ++i)
      process<<<1, 256, 0, st[i]>>>(d + i * n);
    for (int i = 0; i < 4; ++i)
      cudaMemcpy(h + i * n, d + i * n, n * 4, cudaMemcpyDeviceToHost);
    // LEGACY: :[[@LINE-1]]:7: warning: 'cudaMemcpy' inside the loop waits for work issued earlier in the same iteration
    // LEGACY: :[[@LINE-4]]:7: note: it waits for this asynchronous operation
  }
}

// ---------------------------------------------------------------------------
// A wait inside a function called once per iteration: each call issues its
// work on the stream of its iteration and waits for it before it returns.

struct StreamedOp {
  cudaStream_t stream;
  float *h, *d;
  void init() { cudaStreamCreate(&stream); }
  void run() {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, stream);
    process<<<1, 256, 0, stream>>>(d);
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
  }
  void issue() {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, stream);
    process<<<1, 256, 0, stream>>>(d);
  }
};

void runEachOp(StreamedOp *ops, int n) {
  for (int i = 0; i < n; ++i)
    ops[i].run();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'run' waits for the work it issues ('cudaStreamSynchronize') in every iteration of the loop, so the iterations cannot overlap; move the wait after the loop, or wait for the previous iteration's work (double buffering) [cuda-async-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE-12]]:5: note: it waits here
  // CHECK-MESSAGES: :[[@LINE-16]]:5: note: for this asynchronous operation
}

void runEachOpOfARange(std::vector<StreamedOp> &ops) {
  for (StreamedOp &op : ops)
    op.run();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'run' waits for the work it issues ('cudaStreamSynchronize') in every iteration of the loop
  // CHECK-MESSAGES: :[[@LINE-20]]:5: note: it waits here
  // CHECK-MESSAGES: :[[@LINE-24]]:5: note: for this asynchronous operation
}

// Issued by the loop, waited for after it: not reported.
void issueEachOpThenWait(StreamedOp *ops, int n) {
  for (int i = 0; i < n; ++i)
    ops[i].issue();
  cudaDeviceSynchronize();
}

// The same object every iteration: one stream, nothing to overlap.
void runOneOpAgain(StreamedOp &op, int n) {
  for (int i = 0; i < n; ++i)
    op.run();
}

// A class whose objects share a stream they are given: not known to be
// one stream per object.
struct SharedStreamOp {
  cudaStream_t stream;
  float *h, *d;
  void run() {
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, stream);
    cudaStreamSynchronize(stream);
  }
};
void runSharedStreamOps(SharedStreamOp *ops, int n) {
  for (int i = 0; i < n; ++i)
    ops[i].run();
}

// A free function given the stream of its iteration.
static void stageOne(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  process<<<1, 256, 0, s>>>(d);
  cudaStreamSynchronize(s);
}
void stageEach(float **d, float **h, cudaStream_t *s, int n) {
  for (int i = 0; i < n; ++i)
    stageOne(d[i], h[i], s[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'stageOne' waits for the work it issues ('cudaStreamSynchronize') in every iteration of the loop
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: it waits here
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: for this asynchronous operation
}

// The same stream each iteration: not reported.
void stageEachOnOneStream(float **d, float **h, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i)
    stageOne(d[i], h[i], s);
}

// The loop goes on by what the call returns: it needs each result.
static bool stepConverged(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h[0] < 1e-6f;
}
void stepUntilConverged(float **d, float **h, cudaStream_t *s) {
  bool converged = false;
  for (int i = 0; !converged; ++i)
    converged = stepConverged(d[i % 2], h[i % 2], s[i % 2]);
}

// ---------------------------------------------------------------------------
// A blocking copy of the buffer the iteration's kernel writes waits for
// that kernel, whatever the streams are (created elsewhere here).

void blockingCopyOfTheKernelsOutput(float **h, float **d, float **out,
                                    cudaStream_t *s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d[i], h[i], 1024, cudaMemcpyHostToDevice, s[i]);
    process<<<1, 256, 0, s[i]>>>(d[i]);
    cudaMemcpy(out[i], d[i], 1024, cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpy' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// A blocking copy of another buffer: the streams, made elsewhere, may not
// wait for it.
void blockingCopyOfAnotherBuffer(float **h, float **d, float **other,
                                 float **out, cudaStream_t *s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d[i], h[i], 1024, cudaMemcpyHostToDevice, s[i]);
    process<<<1, 256, 0, s[i]>>>(d[i]);
    cudaMemcpy(out[i], other[i], 1024, cudaMemcpyDeviceToHost);
  }
}

// Time stepping on two streams: each step reads what both streams wrote in
// the step before (the loop exchanges the two fields its kernels take), so
// the device sync is the streams' join, not a serialization.
__global__ void stencil(float *out, const float *in) {}
void timeSteps(float *u1, float *u2, cudaStream_t halo, cudaStream_t body,
               int nsteps) {
  for (int t = 0; t < nsteps; ++t) {
    stencil<<<1, 32, 0, halo>>>(u1, u2);
    stencil<<<1, 32, 0, body>>>(u1, u2);
    cudaDeviceSynchronize();
    float *tmp = u1;
    u1 = u2;
    u2 = tmp;
  }
}

// Time stepping whose exchanged fields only one stream takes (the Jacobi
// solver of multi-gpu-programming-models' single_gpu, a device sync moved
// into its loop): stream order already runs the next step after this one;
// the wait only keeps the norm's copy and reset streams from overlapping
// the next step.
void timeStepsOnOneStream(float *a, float *a_new, float *norm_d,
                          float *norm_h, cudaStream_t compute,
                          cudaStream_t copy, cudaEvent_t computed, int n) {
  for (int t = 0; t < n; ++t) {
    stencil<<<1, 32, 0, compute>>>(a_new, a);
    cudaEventRecord(computed, compute);
    cudaStreamWaitEvent(copy, computed, 0);
    cudaMemcpyAsync(norm_h, norm_d, 4, cudaMemcpyDeviceToHost, copy);
    std::swap(a_new, a);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: it waits for this asynchronous operation
  }
}

// Time stepping whose halo pushes events already join to the compute
// stream, from one step to the next (multi_threaded_copy's Jacobi: the push
// streams wait for the step's compute, the next step's compute waits for
// the pushes): the fields need no host wait, and one costs the overlap of
// the pushes with the next step.
void timeStepsJoinedByEvents(float *a, float *a_new, cudaStream_t compute,
                             cudaStream_t push, cudaEvent_t computed,
                             cudaEvent_t *pushed, int n) {
  for (int t = 0; t < n; ++t) {
    cudaStreamWaitEvent(compute, pushed[t % 2], 0);
    stencil<<<1, 32, 0, compute>>>(a_new, a);
    cudaEventRecord(computed, compute);
    cudaStreamWaitEvent(push, computed, 0);
    cudaMemcpyAsync(a_new, a_new + 32, 128, cudaMemcpyDeviceToDevice, push);
    cudaEventRecord(pushed[(t + 1) % 2], push);
    std::swap(a_new, a);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: it waits for this asynchronous operation
  }
}

// The same pushes joined only when the norm is due: the join does not run
// in every step, so the host wait is it in the others.
void timeStepsJoinedSometimes(float *a, float *a_new, cudaStream_t compute,
                              cudaStream_t push, cudaEvent_t computed,
                              cudaEvent_t *pushed, int n) {
  for (int t = 0; t < n; ++t) {
    if (t % 10 == 0)
      cudaStreamWaitEvent(compute, pushed[t % 2], 0);
    stencil<<<1, 32, 0, compute>>>(a_new, a);
    cudaEventRecord(computed, compute);
    cudaStreamWaitEvent(push, computed, 0);
    cudaMemcpyAsync(a_new, a_new + 32, 128, cudaMemcpyDeviceToDevice, push);
    cudaEventRecord(pushed[(t + 1) % 2], push);
    std::swap(a_new, a);
    cudaDeviceSynchronize();
  }
}

// Double buffering that exchanges its host buffers but hands each step only
// one of them: the steps are independent, and the wait serializes them.
void swapsButSerializes(float *d, float *cur, float *next, cudaStream_t *s,
                        size_t bytes, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpyAsync(d, cur, bytes, cudaMemcpyHostToDevice, s[i % 2]);
    process<<<1, 32, 0, s[i % 2]>>>(d);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
    std::swap(cur, next);
  }
}

// ---------------------------------------------------------------------------
// Work issued inside a function of the unit that returns before it is done
// (professional-cuda's crypt.flexible: a driver per device): a wait for the
// device right after the call, in the loop over devices, waits for it.

struct DeviceContext {
  cudaStream_t *streams;
  float *d;
  int blocks;
};

static void driveDevice(float *h, DeviceContext *ctx, int n) {
  for (int b = 0; b < ctx->blocks; ++b) {
    cudaMemcpyAsync(ctx->d + b * n, h + b * n, n * 4, cudaMemcpyHostToDevice,
                    ctx->streams[b]);
    process<<<1, 256, 0, ctx->streams[b]>>>(ctx->d + b * n);
  }
}

void deviceLoopWaitsAfterDriver(float *h, DeviceContext *ctxs, int devices,
                                int n) {
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    driveDevice(h + dev * n, ctxs + dev, n);
    cudaDeviceSynchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: it waits for this asynchronous operation
  }
}

// Every device's work issued first, then a loop of waits: not reported.
void deviceLoopThenWaitLoop(float *h, DeviceContext *ctxs, int devices,
                            int n) {
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    driveDevice(h + dev * n, ctxs + dev, n);
  }
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    cudaDeviceSynchronize();
  }
}

// A driver that waits for its streams before it returns leaves nothing in
// flight for the loop's wait.
static void driveAndWait(float *h, DeviceContext *ctx, int n) {
  for (int b = 0; b < ctx->blocks; ++b)
    process<<<1, 256, 0, ctx->streams[b]>>>(ctx->d + b * n);
  for (int b = 0; b < ctx->blocks; ++b)
    cudaStreamSynchronize(ctx->streams[b]);
}

void deviceLoopDriverWaits(float *h, DeviceContext *ctxs, int devices, int n) {
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    driveAndWait(h + dev * n, ctxs + dev, n);
    cudaDeviceSynchronize();
  }
}

// A step on the one stream it is given: its work runs in order anyway.
static void stepOnOneStream(float *d, cudaStream_t s) {
  process<<<1, 256, 0, s>>>(d);
}

void timeLoopOneStream(float *d, cudaStream_t s, int steps) {
  for (int t = 0; t < steps; ++t) {
    stepOnOneStream(d, s);
    cudaDeviceSynchronize();
  }
}

// An RAII stream wrapper converts to the stream it owns: each wrapper object
// is one stream, an element of a vector of them one of an array of streams.
struct OwnedStream {
  cudaStream_t stream;
  operator cudaStream_t() const { return stream; }
};

struct Pipelines {
  std::vector<OwnedStream> ss;
  void wrapperSyncEachIteration(float *d, int n);
};

void Pipelines::wrapperSyncEachIteration(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemsetAsync(d + i * 256, 0, 1024, ss[i]);
    process<<<1, 256, 0, ss[i]>>>(d + i * 256);
    cudaStreamSynchronize(ss[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaStreamSynchronize' inside the loop waits for work issued earlier in the same iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: it waits for this asynchronous operation
  }
}

// Two wrapper objects are two streams: the wait is for the upload stream's
// work of earlier iterations, none of this one's.
void wrapperWaitsForTheOtherObject(float *d, OwnedStream &compute,
                                   OwnedStream &upload, int n) {
  for (int i = 0; i < n; ++i) {
    cudaStreamSynchronize(upload);
    cudaMemsetAsync(d + i * 256, 0, 1024, compute);
    process<<<1, 256, 0, compute>>>(d + i * 256);
  }
}

// A wait in the last pass of its loop and of every loop around it holds
// back no later iteration: the download of the last batch.
void lastBatchWaited(float *h, float *d[2], cudaStream_t st[2], int batches,
                     int n) {
  for (int i = 0; i < batches / 2; i++) {
    for (int s = 0; s < 2; s++) {
      process<<<1, 256, 0, st[s]>>>(d[s]);
      if (s == 1 && i == batches / 2 - 1) {
        cudaMemcpyAsync(h, d[1], n, cudaMemcpyDeviceToHost, st[1]);
        cudaDeviceSynchronize();
      }
    }
  }
}

// In the last pass of the inner loop only: the next batch waits.
void lastStreamWaited(float *h, float *d[2], cudaStream_t st[2], int batches,
                      int n) {
  for (int i = 0; i < batches / 2; i++) {
    for (int s = 0; s < 2; s++) {
      process<<<1, 256, 0, st[s]>>>(d[s]);
      if (s == 1) {
        cudaMemcpyAsync(h, d[1], n, cudaMemcpyDeviceToHost, st[1]);
        cudaDeviceSynchronize();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'cudaDeviceSynchronize' inside the loop waits for work issued earlier in the same iteration
        // CHECK-MESSAGES: :[[@LINE-5]]:7: note: it waits for this asynchronous operation
      }
    }
  }
}
