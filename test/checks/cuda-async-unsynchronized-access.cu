// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <vector>

__global__ void kernel(float *x) {}
void consume(const float *data);
void finishOn(cudaStream_t s);
float consumed;
void consumeHere(const float *data) { consumed = data[0]; }
void produceHere(float *data) { data[0] = consumed; }
void produce(float *data);
void prepareBatch(float *h, int i);

// ---------------------------------------------------------------------------
// Device-to-host destinations touched before a sync.

float readBeforeSync(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
}

float readPinnedBeforeSync(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  float first = *h;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: '*h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  return first + h[1];
}

void writeBeforeSync(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  h[3] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h[3]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
}

float readOnLegacyStream(float *d, float *h) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on the legacy default stream; wait for it first with cudaStreamSynchronize(0) or an event
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
}

// Synchronized the compute stream, read the copy stream's result.
float wrongStreamSynchronized(float *d, float *h, cudaStream_t copy,
                              cudaStream_t compute) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, copy);
  cudaStreamSynchronize(compute);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'copy'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 'copy', not synchronized before the access
}

float syncOnOneBranchOnly(float *d, float *h, cudaStream_t s, bool wait) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  if (wait)
    cudaStreamSynchronize(s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:55: note: on stream 's', not synchronized before the access
}

// A kernel between copy and read synchronizes nothing.
float kernelBetweenCopyAndRead(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  kernel<<<1, 32, 0, s>>>(d);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

// An event recorded before the copy does not cover it.
float eventRecordedBeforeCopy(float *d, float *h, cudaStream_t s) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaEventRecord(done, s);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(done);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

// An event recorded on another stream does not cover it.
float eventOnAnotherStream(float *d, float *h, cudaStream_t s,
                           cudaStream_t other) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(done, other);
  cudaEventSynchronize(done);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:55: note: on stream 's', not synchronized before the access
}

// Querying once is not waiting.
float queriedOnce(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamQuery(s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

// Polling another stream.
float polledAnotherStream(float *d, float *h, cudaStream_t s,
                          cudaStream_t other) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(other) == cudaErrorNotReady) {
  }
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:55: note: on stream 's', not synchronized before the access
}

// A blocking copy does not wait for a stream created non-blocking.
float blockingCopyAndNonBlockingStream(float *d, float *h, float *other) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaMemcpy(other, d, 1024, cudaMemcpyDeviceToHost);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

// Library calls and other functions read and write their pointer arguments.
void libraryAccesses(float *d, float *h, float *copyOut, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  memcpy(copyOut, h, 1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  std::copy(h, h + 256, copyOut);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  consumeHere(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :16:50: note: 'data[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// A function of another translation unit may synchronize a stream it is
// given. Precision first: nothing on that stream is pending after it.
// Given only the buffer, it is a host access (the previous function).
void opaqueHelpers(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  finishOn(s);
  h[0] = 2.0f;
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  consume(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// cudaFree and cudaFreeHost synchronize the device before they release.
void implicitSyncOfFree(float *d, float *h, float *dOther, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaFree(dOther);
  float first = h[0];
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaFreeHost(h);
  (void)first;
}

// ---------------------------------------------------------------------------
// Host-to-device sources written or released before a sync.

void writeSourceBeforeSync(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  h[0] = 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
}

void refillSourceBeforeSync(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  memset(h, 0, 1024);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  std::fill(h, h + 256, 1.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  produceHere(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :17:33: note: 'data[0]' is written here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

// cudaFreeHost waits for the device before it releases (as HIP documents
// for hipHostFree): no race.
void freeSourceBeforeSync(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaFreeHost(h);
}

void unregisterSourceBeforeSync(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaHostRegister(h, 1024, 0);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaHostUnregister(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is released while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  free(h);
}

// Memory of unknown kind that the function itself releases with free: by
// the program's word it is pageable, so the copy was staged (CUDA-ZSTD's
// migrate_host_to_device). A write to it instead is still a race.
void *migrateAndFree(void *host, size_t n, void *d, cudaStream_t s) {
  cudaMemcpyAsync(d, host, n, cudaMemcpyHostToDevice, s);
  free(host);
  return d;
}
void migrateAndOverwrite(char *host, size_t n, void *d, cudaStream_t s) {
  cudaMemcpyAsync(d, host, n, cudaMemcpyHostToDevice, s);
  host[0] = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'host[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:55: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
}

// The batch loop of seed 000: refilling the pinned buffer at the top of
// iteration i + 1 races with iteration i's copy from it.
void batchLoopRefill(float *d_batch, float *d_output, float *h_result,
                     int n_batches, int batchSize, cudaStream_t stream) {
  size_t batchBytes = batchSize * sizeof(float);
  float *h_pinned;
  cudaMallocHost(&h_pinned, batchBytes);
  for (int i = 0; i < n_batches; i++) {
    prepareBatch(h_pinned, i);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h_pinned' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 'stream'
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE+1]]:76: note: on stream 'stream', not synchronized before the access
    cudaMemcpyAsync(d_batch, h_pinned, batchBytes, cudaMemcpyHostToDevice, stream);
    kernel<<<1, 256, 0, stream>>>(d_batch);
    cudaMemcpyAsync(h_result + i * batchSize, d_output, batchBytes,
                    cudaMemcpyDeviceToHost, stream);
  }
  cudaStreamSynchronize(stream);
  cudaFreeHost(h_pinned);
}

// ---------------------------------------------------------------------------
// Containers, range-for, end of scope, the driver API.

float rangeForOverRegisteredVector(float *d, cudaStream_t s) {
  std::vector<float> results(256);
  cudaHostRegister(results.data(), 1024, 0);
  cudaMemcpyAsync(results.data(), d, 1024, cudaMemcpyDeviceToHost, s);
  float sum = 0;
  for (float r : results)
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'results' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-5]]:68: note: on stream 's', not synchronized before the access
    sum += r;
  cudaStreamSynchronize(s);
  cudaHostUnregister(results.data());
  return sum;
}

void registeredVectorDiesInFlight(float *d, cudaStream_t s) {
  std::vector<float> staging(256);
  cudaHostRegister(staging.data(), 1024, 0);
  cudaMemcpyAsync(d, staging.data(), 1024, cudaMemcpyHostToDevice, s);
}
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: 'staging' goes out of scope while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
// CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
// CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access

void registeredArrayDiesInFlight(float *d, cudaStream_t s) {
  float local[256];
  cudaHostRegister(local, sizeof(local), 0);
  cudaMemcpyAsync(local, d, sizeof(local), cudaMemcpyDeviceToHost, s);
}
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: 'local' goes out of scope while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
// CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
// CHECK-MESSAGES: :[[@LINE-4]]:68: note: on stream 's', not synchronized before the access

// A reference going out of scope ends the reference, not the vector it
// refers to: no finding at the brace.
std::vector<float> &sharedStaging();
void referenceEndsNotItsVector(float *d, cudaStream_t s) {
  const std::vector<float> &data_vec = sharedStaging();
  cudaHostRegister((void *)data_vec.data(), 1024, 0);
  cudaMemcpyAsync(d, data_vec.data(), 1024, cudaMemcpyHostToDevice, s);
}

// A temporary bound to a reference ends with the reference's scope.
std::vector<float> freshStaging();
void temporaryEndsWithItsReference(float *d, cudaStream_t s) {
  const std::vector<float> &data_vec = freshStaging();
  cudaHostRegister((void *)data_vec.data(), 1024, 0);
  cudaMemcpyAsync(d, data_vec.data(), 1024, cudaMemcpyHostToDevice, s);
}
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: 'data_vec' goes out of scope while 'cudaMemcpyAsync' from it may still be in flight on stream 's'
// CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
// CHECK-MESSAGES: :[[@LINE-4]]:69: note: on stream 's', not synchronized before the access

char driverApiRead(CUdeviceptr d, CUstream s) {
  char *h;
  cuMemAllocHost((void **)&h, 64);
  cuMemcpyDtoHAsync(h, d, 64, s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cuMemcpyDtoHAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:31: note: on stream 's', not synchronized before the access
}

float managedRead(float *d, cudaStream_t s) {
  float *m;
  cudaMallocManaged(&m, 1024);
  cudaMemcpy2DAsync(m, 64, d, 64, 64, 4, cudaMemcpyDeviceToHost, s);
  return m[5];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'm[5]' is read while 'cudaMemcpy2DAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:66: note: on stream 's', not synchronized before the access
}

void syncsItsOtherStream(cudaStream_t a, cudaStream_t b) {
  cudaStreamSynchronize(b);
}

float helperSyncsTheWrongParameter(float *d, float *h, cudaStream_t s,
                                   cudaStream_t t) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  syncsItsOtherStream(s, t);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
}

template <typename T> T readTemplate(T *d, T *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, sizeof(T), cudaMemcpyDeviceToHost, s);
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:60: note: on stream 's', not synchronized before the access
}
template float readTemplate<float>(float *, float *, cudaStream_t);
template int readTemplate<int>(int *, int *, cudaStream_t);

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

float streamSynchronized(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h[0];
}

float deviceSynchronized(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaDeviceSynchronize();
  return h[0];
}

float eventRecordedAfter(float *d, float *h, cudaStream_t s) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  kernel<<<1, 32, 0, s>>>(d);
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);
  return h[0];
}

float pollingStream(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
  }
  return h[0];
}

float pollingEvent(float *d, float *h, cudaStream_t s) {
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(done, s);
  while (cudaEventQuery(done) != cudaSuccess) {
  }
  return h[0];
}

float syncedOnBothBranches(float *d, float *h, cudaStream_t s, bool all) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  if (all)
    cudaDeviceSynchronize();
  else
    cudaStreamSynchronize(s);
  return h[0];
}

// Double buffering: wait for the previous iteration's event before refilling.
void doubleBuffered(float *d, float *h_in, int batches, cudaStream_t s) {
  cudaEvent_t copied;
  cudaEventCreate(&copied);
  for (int i = 0; i < batches; ++i) {
    if (i > 0)
      cudaEventSynchronize(copied);
    prepareBatch(h_in, i);
    cudaMemcpyAsync(d, h_in, 1024, cudaMemcpyHostToDevice, s);
    cudaEventRecord(copied, s);
  }
  cudaStreamSynchronize(s);
}

// Reading the source of a host-to-device copy in flight is fine.
float readSourceInFlight(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  float first = h[0];
  consume(h);
  cudaStreamSynchronize(s);
  return first;
}

// A blocking copy waits for every blocking stream.
float blockingCopySynchronizes(float *d, float *h, float *other,
                               cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaMemcpy(other, d, 1024, cudaMemcpyDeviceToHost);
  return h[0];
}

void syncDevice() { cudaDeviceSynchronize(); }
void syncStreamOf(cudaStream_t stream) { cudaStreamSynchronize(stream); }

float helpersThatSynchronize(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  syncDevice();
  float first = h[0];
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  syncStreamOf(s);
  return first + h[0];
}

// Pageable memory: the copy is synchronous (cuda-async-pageable-copy).
float pageableDestination(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  return h[0];
}

// The 4-stream pipeline of seed 002, with pinned buffers and a sync loop.
void pipeline(float *d_in, float *d_out) {
  const int batches = 4, batch = 1024;
  float *h_in, *h_out;
  cudaMallocHost(&h_in, batches * batch * sizeof(float));
  cudaMallocHost(&h_out, batches * batch * sizeof(float));
  cudaStream_t streams[batches];
  for (int i = 0; i < batches; i++)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < batches; i++) {
    size_t offset = i * batch;
    for (int j = 0; j < batch; ++j)
      h_in[offset + j] = float(j);
    cudaMemcpyAsync(d_in + offset, h_in + offset, batch * sizeof(float),
                    cudaMemcpyHostToDevice, streams[i]);
    kernel<<<batch / 256, 256, 0, streams[i]>>>(d_out + offset);
    cudaMemcpyAsync(h_out + offset, d_out + offset, batch * sizeof(float),
                    cudaMemcpyDeviceToHost, streams[i]);
  }
  for (int i = 0; i < batches; i++)
    cudaStreamSynchronize(streams[i]);
  consume(h_out);
  cudaFreeHost(h_in);
  cudaFreeHost(h_out);
}

// Another buffer than the one in flight.
float otherBuffer(float *d, float *h, float *other, cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  float x = other[0];
  cudaStreamSynchronize(s);
  return x + h[0];
}

// Swapping buffers: the pointer names another buffer after the swap.
void swapBuffers(float *d, float *a, float *b, int n, cudaStream_t s) {
  float *front = a;
  front = b;
  cudaMemcpyAsync(d, front, 1024, cudaMemcpyHostToDevice, s);
  front = a;
  front[0] = 1.0f;
  cudaStreamSynchronize(s);
}

// A local copy of the stream handle is the same stream.
float streamAlias(float *d, float *h, cudaStream_t s) {
  cudaStream_t same = s;
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(same);
  return h[0];
}

float perThreadStream(float *d, float *h) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  cudaStreamSynchronize(cudaStreamPerThread);
  return h[0];
}

// Streams and events the analysis cannot identify may be the right ones.
cudaStream_t currentStream();
float unknownStreams(float *d, float *h, cudaStream_t s, cudaEvent_t done) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, currentStream());
  cudaStreamSynchronize(s);
  float first = h[0];
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(currentStream());
  float second = h[0];
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaEventSynchronize(done);
  return first + second + h[0];
}

// Copies and syncs in the same branch; syncs after the issuing loop.
float syncInsideTheBranch(float *d, float *h, cudaStream_t s, bool fetch) {
  if (fetch) {
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
  }
  return h[0];
}

float syncAfterTheLoop(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h + i * 256, d + i * 256, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  return h[0];
}

// Each iteration fills its own slice: no overlap with the previous copy.
void perSliceRefill(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    float *slice = h + i * 256;
    prepareBatch(slice, i);
    cudaMemcpyAsync(d + i * 256, slice, 1024, cudaMemcpyHostToDevice, s);
  }
  cudaStreamSynchronize(s);
}

void registeredVectorSynchronized(float *d, cudaStream_t s) {
  std::vector<float> staging(256);
  cudaHostRegister(staging.data(), 1024, 0);
  cudaMemcpyAsync(d, staging.data(), 1024, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(staging.data());
}

template <typename T> T neverInstantiated(T *d, T *h, cudaStream_t s) {
  cudaMemcpyAsync(h, d, sizeof(T), cudaMemcpyDeviceToHost, s);
  return h[0];
}

// ---------------------------------------------------------------------------
// Correlated branches: a path that took 'if (isAsync)' true takes it true
// again while isAsync is unchanged.

void sameConditionGuardsCopyAndSync(float *d, float *h, int n, bool isAsync,
                                    cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    h[0] = float(i);
    if (isAsync)
      cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    else
      cudaMemcpy(d, h, 1024, cudaMemcpyHostToDevice);
    if (isAsync)
      cudaStreamSynchronize(s);
  }
}

void negatedConditionGuardsTheSync(float *d, float *h, int mode,
                                   cudaStream_t s) {
  if (mode == 1)
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  if (mode != 1) {
  } else {
    cudaStreamSynchronize(s);
  }
  float v = h[0];
  (void)v;
}

// The condition changes in between: the paths are not correlated.
void conditionWrittenInBetween(float *d, float *h, bool isAsync,
                               cudaStream_t s) {
  if (isAsync)
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  isAsync = !isAsync;
  if (isAsync)
    cudaStreamSynchronize(s);
  float v = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-7]]:57: note: on stream 's', not synchronized before the access
  (void)v;
}

// A condition a call may change (its address escapes) is not trusted.
void setMode(bool *mode);
void conditionEscapes(float *d, float *h, bool isAsync, cudaStream_t s) {
  setMode(&isAsync);
  if (isAsync)
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  setMode(&isAsync);
  if (isAsync)
    cudaStreamSynchronize(s);
  float v = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-7]]:57: note: on stream 's', not synchronized before the access
  (void)v;
}

// A loop that issues over n streams and a loop over the same n that
// synchronizes them: the second runs whenever the first ran.
struct Plan {
  float *h, *d;
  cudaStream_t stream;
};

void syncLoopOverTheSameBound(Plan *plan, int n) {
  int i;
  for (i = 0; i < n; i++)
    cudaMemcpyAsync(plan[i].h, plan[i].d, 1024, cudaMemcpyDeviceToHost,
                    plan[i].stream);
  for (i = 0; i < n; i++)
    cudaStreamSynchronize(plan[i].stream);
  for (i = 0; i < n; i++)
    consumeHere(plan[i].h);
}

void syncLoopOverArrays(float *d, float *h, cudaStream_t *streams, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, streams[i]);
  for (int i = 0; i < n; ++i)
    cudaStreamSynchronize(streams[i]);
  consumeHere(h);
}

// A different bound: the sync loop may run fewer times.
void syncLoopOverAnotherBound(Plan *plan, int n, int m) {
  int i;
  for (i = 0; i < n; i++)
    cudaMemcpyAsync(plan[i].h, plan[i].d, 1024, cudaMemcpyDeviceToHost,
                    plan[i].stream);
  for (i = 0; i < m; i++)
    cudaStreamSynchronize(plan[i].stream);
  for (i = 0; i < n; i++)
    consumeHere(plan[i].h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'plan[i].h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'plan[i].stream'
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :16:50: note: 'data[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-8]]:21: note: on stream 'plan[i].stream', not synchronized before the access
}

// Two streams per device, 'stream[dev * 2]' and 'stream[dev * 2 + 1]'
// (TIGRE's projectors): whichever devices the loops name, a sync of each
// device's first stream never waits for its second.
void downloadsOnEachDevicesSecondStream(float **d, float *h,
                                        cudaStream_t *stream, int devices) {
  for (int dev = 0; dev < devices; dev++)
    cudaMemcpyAsync(h + dev * 256, d[dev], 1024, cudaMemcpyDeviceToHost,
                    stream[dev * 2 + 1]);
  for (int dev = 0; dev < devices; dev++)
    cudaStreamSynchronize(stream[dev * 2]);
  consumeHere(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'h' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream[dev * 2 + 1]'
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :16:50: note: 'data[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: on stream 'stream[dev * 2 + 1]', not synchronized before the access
}

void waitsForEachDevicesSecondStream(float **d, float *h,
                                     cudaStream_t *stream, int devices) {
  for (int dev = 0; dev < devices; dev++)
    cudaMemcpyAsync(h + dev * 256, d[dev], 1024, cudaMemcpyDeviceToHost,
                    stream[dev * 2 + 1]);
  for (int dev = 0; dev < devices; dev++)
    cudaStreamSynchronize(stream[dev * 2 + 1]);
  consumeHere(h);
}

// Each iteration waits for the stream the previous one issued on: 's[i]'
// now is the 's[i + 1]' of the iteration before.
void waitsForThePreviousIterationsStream(float *d, float *h,
                                         cudaStream_t *s, int n) {
  for (int i = 0; i < n; i++) {
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, s[i + 1]);
    cudaStreamSynchronize(s[i]);
  }
  cudaStreamSynchronize(s[n]);
  consumeHere(h);
}

// A later loop whose counter starts again at 0 names the slices the copies
// of the first loop still write; one that moves on in the same loop names
// another slice.
void readsEverySliceAgainBeforeTheWait(float *d, float *h,
                                       cudaStream_t *streams, int n) {
  int i;
  for (i = 0; i < n; i++)
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, streams[i]);
  for (i = 0; i < n; i++)
    consumeHere(h + i * 256);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'h + i * 256' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'streams[i]'
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :16:50: note: 'data[0]' is read here
  // CHECK-MESSAGES: :[[@LINE-6]]:67: note: on stream 'streams[i]', not synchronized before the access
  for (i = 0; i < n; i++)
    cudaStreamSynchronize(streams[i]);
}

void readsTheSliceBeforeEachCopy(float *d, float *h, cudaStream_t *streams,
                                 int n) {
  for (int i = 0; i < n; i++) {
    consumeHere(h + i * 256);
    cudaMemcpyAsync(h + i * 256, d, 1024, cudaMemcpyDeviceToHost, streams[i]);
  }
  for (int i = 0; i < n; i++)
    cudaStreamSynchronize(streams[i]);
}

// ---------------------------------------------------------------------------
// An event recorded on the legacy default stream completes after every
// blocking stream's earlier work.

void legacyEventCoversBlockingStreams(float *d, float *h, cudaStream_t *streams) {
  cudaEvent_t stop;
  cudaEventCreate(&stop);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, streams[0]);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float v = h[0];
  (void)v;
}

void legacyEventDoesNotCoverNonBlocking(float *d, float *h) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEvent_t stop;
  cudaEventCreate(&stop);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float v = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:55: note: on stream 's', not synchronized before the access
  (void)v;
}

// A device-to-device blocking copy does not synchronize the host.
void deviceToDeviceCopyIsNoSync(float *d, float *d2, float *h,
                                cudaStream_t s) {
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaMemcpy(d2, d, 1024, cudaMemcpyDeviceToDevice);
  float v = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: on stream 's', not synchronized before the access
  (void)v;
}

// A switch on a mode that also decides whether the copy happens.
enum Mode { Pageable, Pinned, PinnedAsync };

void switchDecidesTheCopy(float *d, float *h, Mode mode, cudaStream_t s) {
  switch (mode) {
  case PinnedAsync:
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
    break;
  case Pinned:
  case Pageable:
    cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost);
    break;
  }
  if (mode == PinnedAsync)
    cudaStreamSynchronize(s);
  float v = h[0];
  (void)v;
  switch (mode) {
  case PinnedAsync:
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
    break;
  default:
    break;
  }
  switch (mode) {
  case PinnedAsync:
    cudaStreamSynchronize(s);
    break;
  case Pinned:
    break;
  default:
    break;
  }
  v = h[0];
}

// Another case syncs: the copy's case does not.
void switchSyncsInAnotherCase(float *d, float *h, Mode mode, cudaStream_t s) {
  if (mode == PinnedAsync)
    cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  switch (mode) {
  case Pinned:
    cudaStreamSynchronize(s);
    break;
  default:
    break;
  }
  float v = h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-10]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-11]]:57: note: on stream 's', not synchronized before the access
  (void)v;
}

// ---------------------------------------------------------------------------
// Held out from real programs (scripts/injected-bugs.py).

float maxError(const float *a, int n);

// The overlap tutorial's V1 loop without its wait: each stream's slice is
// in flight after the loop, and maxError reads them all.
float slicesReadAfterTheLoop(float *d, int n) {
  cudaStream_t stream[4];
  float *a;
  cudaMallocHost(&a, 4 * n * sizeof(float));
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&stream[i]);
  for (int i = 0; i < 4; ++i) {
    int offset = i * n;
    cudaMemcpyAsync(&a[offset], &d[offset], n * sizeof(float),
                    cudaMemcpyDeviceToHost, stream[i]);
  }
  return maxError(a, 4 * n);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'a' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream[i]'; wait for it first with cudaStreamSynchronize(stream[i]) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:45: note: on stream 'stream[i]', not synchronized before the access
}

// The same with a wait for every stream after the loop: silent.
float slicesWaitedForAfterTheLoop(float *d, float *a, int n,
                                  cudaStream_t *stream) {
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(a + i * n, d + i * n, n * sizeof(float),
                    cudaMemcpyDeviceToHost, stream[i]);
  for (int i = 0; i < 4; ++i)
    cudaStreamSynchronize(stream[i]);
  return maxError(a, 4 * n);
}

// simpleStreams' correct_data reads an element of the first slice.
float firstElementAfterTheLoop(float *d, float *a, int n, cudaStream_t s) {
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(a + i * n, d + i * n, n * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
  return a[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'a[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:45: note: on stream 's', not synchronized before the access
}

// A running offset: the slice copied before 'off += n' is still part of 'a'.
float runningOffset(float *d, float *a, int n, cudaStream_t s) {
  int off = 0;
  cudaMemcpyAsync(a + off, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  off += n;
  cudaMemcpyAsync(a + off, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
  return a[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'a[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:74: note: on stream 's', not synchronized before the access
}

// The next slice of a running offset is not the one in flight: silent.
void runningOffsetNextSlice(float *d, float *a, int n, cudaStream_t s) {
  int off = 0;
  cudaMemcpyAsync(d, a + off, n * sizeof(float), cudaMemcpyHostToDevice, s);
  off += n;
  prepareBatch(a + off, 1);
  cudaStreamSynchronize(s);
}

// A detector's boxes read through the element's address cast to a struct,
// the pinned member buffer allocated in another member function.
struct Box {
  float v[9];
};
class Detector {
public:
  void init(int n) {
    cudaMallocHost(&hBoxes, n * 9 * sizeof(float));
    cudaStreamCreate(&stream);
  }
  void download(int n, Box *out) {
    cudaMemcpyAsync(hBoxes, dBoxes, n * 9 * sizeof(float),
                    cudaMemcpyDeviceToHost, stream);
    for (int i = 0; i < n; ++i)
      out[i] = *(Box *)(&hBoxes[i * 9]);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '*(Box *)(&hBoxes[i * 9])' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-5]]:45: note: on stream 'stream', not synchronized before the access
  }
  Box first() {
    cudaMemcpyAsync(hBoxes, dBoxes, 9 * sizeof(float), cudaMemcpyDeviceToHost,
                    stream);
    Box b = *(Box *)hBoxes;
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '*(Box *)hBoxes' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'stream'
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: the asynchronous copy is issued here
    // CHECK-MESSAGES: :[[@LINE-4]]:21: note: on stream 'stream', not synchronized before the access
    return b;
  }
  void downloadWaited(int n, Box *out) {
    cudaMemcpyAsync(hBoxes, dBoxes, n * 9 * sizeof(float),
                    cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    for (int i = 0; i < n; ++i)
      out[i] = *(Box *)(&hBoxes[i * 9]);
  }

private:
  float *hBoxes, *dBoxes;
  cudaStream_t stream;
};

// A loop bound the CUDA runtime writes ('cudaGetDeviceCount(&n)') and
// printf reads is still the same bound for the loop that issues and the
// loop that waits: the read after them is synchronized.
struct DevicePlan {
  float *h, *d;
  cudaStream_t stream;
};
float sumOverDevices(DevicePlan *plan) {
  int n;
  cudaGetDeviceCount(&n);
  printf("%d devices\n", n);
  for (int i = 0; i < n; i++)
    cudaMemcpyAsync(plan[i].h, plan[i].d, 64, cudaMemcpyDeviceToHost,
                    plan[i].stream);
  for (int i = 0; i < n; i++)
    cudaStreamSynchronize(plan[i].stream);
  float sum = 0;
  for (int i = 0; i < n; i++)
    sum += plan[i].h[0];
  return sum;
}
// Written again by the runtime between the loops: another bound.
float sumOverRecountedDevices(DevicePlan *plan) {
  int n;
  cudaGetDeviceCount(&n);
  for (int i = 0; i < n; i++)
    cudaMemcpyAsync(plan[i].h, plan[i].d, 64, cudaMemcpyDeviceToHost,
                    plan[i].stream);
  cudaGetDeviceCount(&n);
  for (int i = 0; i < n; i++)
    cudaStreamSynchronize(plan[i].stream);
  return plan[0].h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'plan[0].h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 'plan[i].stream'
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: on stream 'plan[i].stream', not synchronized before the access
}

// ---------------------------------------------------------------------------
// Across streams through events: a stream made to wait for an event
// (cudaStreamWaitEvent) runs its later work after what the event covers,
// so an event recorded on it, or a sync of it, covers that too.

void chainThroughStreamWaitEvent(float *d, float *pinned, cudaStream_t copy,
                                 cudaStream_t compute) {
  cudaEvent_t copied, computed;
  cudaEventCreate(&copied);
  cudaEventCreate(&computed);
  cudaMemcpyAsync(d, pinned, 1024, cudaMemcpyHostToDevice, copy);
  cudaEventRecord(copied, copy);
  cudaStreamWaitEvent(compute, copied, 0);
  kernel<<<1, 256, 0, compute>>>(d);
  cudaEventRecord(computed, compute);
  cudaEventSynchronize(computed);
  pinned[0] = 1.0f;
}

void chainThroughAStreamSync(float *d, float *pinned, cudaStream_t copy,
                             cudaStream_t compute) {
  cudaEvent_t copied;
  cudaEventCreate(&copied);
  cudaMemcpyAsync(d, pinned, 1024, cudaMemcpyHostToDevice, copy);
  cudaEventRecord(copied, copy);
  cudaStreamWaitEvent(compute, copied, 0);
  cudaStreamSynchronize(compute);
  pinned[0] = 1.0f;
}

// The event was recorded before the copy: the chain does not cover it.
void chainRecordedBeforeTheCopy(float *d, float *pinned, cudaStream_t copy,
                                cudaStream_t compute) {
  cudaEvent_t before;
  cudaEventCreate(&before);
  cudaEventRecord(before, copy);
  cudaMemcpyAsync(d, pinned, 1024, cudaMemcpyHostToDevice, copy);
  cudaStreamWaitEvent(compute, before, 0);
  cudaStreamSynchronize(compute);
  pinned[0] = 1.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pinned[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 'copy'; wait for it first with cudaStreamSynchronize(copy) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-6]]:60: note: on stream 'copy', not synchronized before the access
}

// Two halves of one pinned allocation, swapped each iteration with
// std::swap: the half written to the file is not the one being copied
// into (llm.c's device_to_file).
void doubleBufferedHalves(float *d, size_t n, size_t half, cudaStream_t s) {
  float *space;
  cudaMallocHost(&space, 2 * half * sizeof(float));
  float *reading = space;
  float *writing = space + half;
  for (size_t done = 0; done < n; done += half) {
    cudaMemcpyAsync(reading, d + done, half * sizeof(float),
                    cudaMemcpyDeviceToHost, s);
    consume(writing);
    cudaStreamSynchronize(s);
    std::swap(reading, writing);
  }
  cudaFreeHost(space);
}

// ---------------------------------------------------------------------------
// A wait loop over devices: every iteration makes a device current and
// synchronizes it, so the loop waits for every device's work. A program
// with no device issued nothing: the loop is taken to run at least once.

float waitForEveryDevice(float *d0, float *d1, float *h0, float *h1, size_t n,
                         cudaStream_t s0, cudaStream_t s1, int devices) {
  cudaSetDevice(0);
  cudaMemcpyAsync(h0, d0, n, cudaMemcpyDeviceToHost, s0);
  cudaSetDevice(1);
  cudaMemcpyAsync(h1, d1, n, cudaMemcpyDeviceToHost, s1);
  for (int i = 0; i < devices; i++) {
    cudaSetDevice(i);
    cudaDeviceSynchronize();
  }
  return h0[0] + h1[0];
}

// The Handbook's error checks (nbody_multiGPU.cu): a failed call jumps out
// to an error label; the loop's exit comes only after every device's wait.
float waitLoopWithErrorJumps(float *d, float *h, size_t n, cudaStream_t s,
                             int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < devices; i++) {
    if (cudaSetDevice(i) != cudaSuccess)
      goto Error;
    if (cudaDeviceSynchronize() != cudaSuccess)
      goto Error;
  }
  return h[0];
Error:
  return -1;
}

// The jump out carries the copy in flight to what the label reads; a break
// before the wait carries it past the loop.
float errorLabelReads(float *d, float *h, size_t n, cudaStream_t s,
                      int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < devices; i++) {
    if (cudaSetDevice(i) != cudaSuccess)
      goto Error;
    cudaDeviceSynchronize();
  }
  return h[0];
Error:
  return h[1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[1]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-10]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-11]]:52: note: on stream 's', not synchronized before the access
}

float waitLoopBrokenEarly(float *d, float *h, size_t n, cudaStream_t s,
                          int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < devices; i++) {
    if (cudaSetDevice(i) != cudaSuccess)
      break;
    cudaDeviceSynchronize();
  }
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-9]]:52: note: on stream 's', not synchronized before the access
}

#define CHECKED(call)                                                          \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess)                                                    \
      abort();                                                                 \
  } while (0)

void waitForAllDevices(int devices) {
  for (int i = 0; i < devices; i++) {
    CHECKED(cudaSetDevice(i));
    CHECKED(cudaDeviceSynchronize());
  }
}

float waitThroughAHelper(float *d, float *h, size_t n, cudaStream_t s,
                         int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  waitForAllDevices(devices);
  return h[0];
}

// A loop that synchronizes only some devices, or may skip the wait, does
// not wait for them all.
float waitForTheFirstDeviceOnly(float *d, float *h, size_t n, cudaStream_t s,
                                int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < devices; i++) {
    if (i == 0)
      cudaDeviceSynchronize();
  }
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-8]]:52: note: on stream 's', not synchronized before the access
}

float waitUnlessSkipped(float *d, float *h, size_t n, cudaStream_t s,
                        const bool *skip, int devices) {
  cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);
  for (int i = 0; i < devices; i++) {
    if (skip[i])
      continue;
    cudaSetDevice(i);
    cudaDeviceSynchronize();
  }
  return h[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'h[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-10]]:52: note: on stream 's', not synchronized before the access
}

// Loops over the same bound read as a member ('this_cuda->num_cuda_dev',
// ARGOT's device loops): the wait loop runs whenever the issuing loop did,
// while nothing may change the member between them: no store to the field,
// no call given a pointer to the object, no call of a function of the
// user's.
struct DeviceSet {
  int num_cuda_dev;
  cudaStream_t strm[4];
};
void reconfigure(DeviceSet *set);

void mergeOnEveryDevice(float **d, DeviceSet *this_cuda, size_t n) {
  float *photoion;
  cudaMallocHost((void **)&photoion, n);
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++) {
    cudaSetDevice(idev);
    cudaMemcpyAsync(d[idev], photoion, n, cudaMemcpyHostToDevice,
                    this_cuda->strm[idev]);
  }
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++) {
    cudaSetDevice(idev);
    cudaStreamSynchronize(this_cuda->strm[idev]);
  }
  photoion[0] = 1;
  cudaFreeHost(photoion);
}

void mergeAfterReconfigure(float **d, DeviceSet *this_cuda, size_t n) {
  float *photoion;
  cudaMallocHost((void **)&photoion, n);
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++)
    cudaMemcpyAsync(d[idev], photoion, n, cudaMemcpyHostToDevice,
                    this_cuda->strm[idev]);
  reconfigure(this_cuda);
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++)
    cudaStreamSynchronize(this_cuda->strm[idev]);
  photoion[0] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'photoion[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 'this_cuda->strm[idev]'; wait for it first with cudaStreamSynchronize(this_cuda->strm[idev]) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: on stream 'this_cuda->strm[idev]', not synchronized before the access
  cudaFreeHost(photoion);
}

void mergeAfterShrinking(float **d, DeviceSet *this_cuda, size_t n) {
  float *photoion;
  cudaMallocHost((void **)&photoion, n);
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++)
    cudaMemcpyAsync(d[idev], photoion, n, cudaMemcpyHostToDevice,
                    this_cuda->strm[idev]);
  this_cuda->num_cuda_dev = 0;
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++)
    cudaStreamSynchronize(this_cuda->strm[idev]);
  photoion[0] = 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'photoion[0]' is written while 'cudaMemcpyAsync' from it may still be in flight on stream 'this_cuda->strm[idev]'; wait for it first with cudaStreamSynchronize(this_cuda->strm[idev]) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-7]]:5: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-7]]:21: note: on stream 'this_cuda->strm[idev]', not synchronized before the access
  cudaFreeHost(photoion);
}

// Between the loops, a kernel not given the object, an upload into a
// device array of structs and a 'dim3' made from a member change no member
// of '*this_cuda': the loops stay correlated.
struct Cell {
  float energy;
};
__global__ void mergeCells(Cell *cells, const float *rate, int offset) {}

void mergeWithKernels(Cell **cells, float **rate, DeviceSet *this_cuda,
                      size_t n) {
  float *photoion;
  cudaMallocHost((void **)&photoion, n);
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++) {
    dim3 grid(this_cuda->num_cuda_dev * 32);
    cudaMemcpyAsync(rate[idev], photoion, n, cudaMemcpyHostToDevice,
                    this_cuda->strm[idev]);
    cudaMemcpyAsync(cells[idev], cells[0], n, cudaMemcpyHostToDevice,
                    this_cuda->strm[idev]);
    mergeCells<<<grid, 64, 0, this_cuda->strm[idev]>>>(cells[idev], rate[idev],
                                                        idev);
  }
  for (int idev = 0; idev < this_cuda->num_cuda_dev; idev++)
    cudaStreamSynchronize(this_cuda->strm[idev]);
  photoion[0] = 1;
  cudaFreeHost(photoion);
}

// A copy moves the bytes at and after the pointer it is given: an element
// before its start is not in flight (Totem's PageRank keeps section 0 on
// the host and downloads the others behind it); one after is.
struct Sections {
  unsigned sections[17];
};

void elementBeforeTheCopy(Sections *ps, unsigned *d, cudaStream_t s) {
  cudaMemcpyAsync(&ps->sections[1], d, 16 * sizeof(unsigned),
                  cudaMemcpyDeviceToHost, s);
  ps->sections[0] = 0;
  cudaStreamSynchronize(s);
}

unsigned elementInTheCopy(Sections *ps, unsigned *d, cudaStream_t s) {
  cudaMemcpyAsync(&ps->sections[1], d, 16 * sizeof(unsigned),
                  cudaMemcpyDeviceToHost, s);
  unsigned v = ps->sections[2];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'ps->sections[2]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  return v;
}

unsigned offsetPointer(unsigned *d, cudaStream_t s) {
  unsigned *h;
  cudaMallocHost((void **)&h, 64);
  cudaMemcpyAsync(h + 4, d, 8 * sizeof(unsigned), cudaMemcpyDeviceToHost, s);
  h[3] = 1;
  unsigned v = ((char *)h)[16];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '((char *)h)[16]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:75: note: on stream 's', not synchronized before the access
  cudaStreamSynchronize(s);
  return v;
}
