// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-unsynchronized-access' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-unsynchronized-access' %s -- %cuda_args | %check_messages %s

// An array of pointers holds pointers: reading one of its slots is not
// reading the buffer the slot points to. A copy into 'staging[i]' races
// with 'staging[i][0]', not with 'staging[i]' itself.

#include <cuda.h>

// ---------------------------------------------------------------------------
// Staging between devices, ordered on the devices: each device's copy into
// its pinned staging buffer, an event after it, the next device's stream
// made to wait for the event, the copy out of the staging buffer there.
// Naming 'staging[i]' again to issue the second copy reads a slot of the
// array, not the staging buffer.

void stageAroundARing(float **d, float **next, float **staging, size_t n,
                      cudaStream_t *s, cudaEvent_t *copied, int devices) {
  for (int i = 0; i < devices; i++) {
    cudaSetDevice(i);
    cudaMemcpyAsync(staging[i], d[i], n, cudaMemcpyDeviceToHost, s[i]);
    cudaEventRecord(copied[i], s[i]);
  }
  for (int i = 0; i < devices; i++) {
    int j = (i + 1) % devices;
    cudaSetDevice(j);
    cudaStreamWaitEvent(s[j], copied[i], 0);
    cudaMemcpyAsync(next[j], staging[i], n, cudaMemcpyHostToDevice, s[j]);
  }
  for (int i = 0; i < devices; i++)
    cudaStreamSynchronize(s[i]);
}

void stageAroundARingDriver(CUdeviceptr *d, CUdeviceptr *next, void **staging,
                            size_t n, CUstream *s, CUevent *copied,
                            int devices) {
  for (int i = 0; i < devices; i++) {
    cuMemcpyDtoHAsync(staging[i], d[i], n, s[i]);
    cuEventRecord(copied[i], s[i]);
  }
  for (int i = 0; i < devices; i++) {
    int j = (i + 1) % devices;
    cuStreamWaitEvent(s[j], copied[i], 0);
    cuMemcpyHtoDAsync(next[j], staging[i], n, s[j]);
  }
  for (int i = 0; i < devices; i++)
    cuStreamSynchronize(s[i]);
}

void stageBetweenTwo(float *dA, float *dB, size_t n, cudaStream_t sA,
                     cudaStream_t sB) {
  float *staging;
  cudaMallocHost(&staging, n);
  cudaEvent_t copied;
  cudaSetDevice(0);
  cudaEventCreate(&copied);
  cudaMemcpyAsync(staging, dA, n, cudaMemcpyDeviceToHost, sA);
  cudaEventRecord(copied, sA);
  cudaSetDevice(1);
  cudaStreamWaitEvent(sB, copied, 0);
  cudaMemcpyAsync(dB, staging, n, cudaMemcpyHostToDevice, sB);
  cudaStreamSynchronize(sB);
  staging[0] = 0.0f;
  cudaFreeHost(staging);
}

// Reading the staged data on the host before the first copy is waited for
// is still a race, through the slot or through a pointer loaded from it.
float readTheStagedData(float **d, float **staging, size_t n, cudaStream_t *s,
                        int i) {
  cudaMemcpyAsync(staging[i], d[i], n, cudaMemcpyDeviceToHost, s[i]);
  float *first = staging[i];
  return staging[i][0] + first[1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'staging[i][0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's[i]'; wait for it first with cudaStreamSynchronize(s[i]) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:64: note: on stream 's[i]', not synchronized before the access
}

float readThroughALoadedPointer(float **d, float **staging, size_t n,
                                cudaStream_t s) {
  cudaMemcpyAsync(*staging, *d, n, cudaMemcpyDeviceToHost, s);
  float *first = *staging;
  return first[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'first[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:60: note: on stream 's', not synchronized before the access
}

// The array of pointers itself as the destination: its slots are what the
// copy writes.
float *readACopiedTable(float **table, float **deviceTable, cudaStream_t s) {
  cudaMemcpyAsync(table, deviceTable, 4 * sizeof(float *),
                  cudaMemcpyDeviceToHost, s);
  return table[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'table[0]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: on stream 's', not synchronized before the access
}

// A slot pointed elsewhere names another buffer.
float readAfterTheSlotMoved(float **d, float **staging, float *other,
                            size_t n, cudaStream_t *s, int i) {
  cudaMemcpyAsync(staging[i], d[i], n, cudaMemcpyDeviceToHost, s[i]);
  staging[i] = other;
  return staging[i][0];
}

// A local array of pinned buffers.
float localArrayOfBuffers(float *d, size_t n, cudaStream_t s) {
  float *buffers[2];
  cudaMallocHost(&buffers[0], n);
  cudaMemcpyAsync(buffers[0], d, n, cudaMemcpyDeviceToHost, s);
  float *current = buffers[0];
  return buffers[0][2];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'buffers[0][2]' is read while 'cudaMemcpyAsync' into it may still be in flight on stream 's'; wait for it first with cudaStreamSynchronize(s) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-5]]:61: note: on stream 's', not synchronized before the access
}

// Two pinned staging buffers in two constant slots (HybridSort's
// 'pinned_M[0]' and 'pinned_M[1]', one per stream): filling one while the
// download into the other is in flight touches another buffer; filling the
// one being downloaded into is a race.
void stagesThroughTwoSlots(const float *src, float *dst, float *d, size_t n,
                           cudaStream_t *streams) {
  float *pinned[2];
  cudaHostAlloc((void **)&pinned[0], n * sizeof(float), cudaHostAllocDefault);
  cudaHostAlloc((void **)&pinned[1], n * sizeof(float), cudaHostAllocDefault);
  cudaMemcpyAsync(pinned[1], d, n * sizeof(float), cudaMemcpyDeviceToHost,
                  streams[1]);
  memcpy(pinned[0], src, n * sizeof(float));
  cudaStreamSynchronize(streams[1]);
  memcpy(dst, pinned[1], n * sizeof(float));
  cudaMemcpyAsync(pinned[1], d, n * sizeof(float), cudaMemcpyDeviceToHost,
                  streams[1]);
  memcpy(pinned[1], src, n * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'pinned[1]' is written while 'cudaMemcpyAsync' into it may still be in flight on stream 'streams[1]'; wait for it first with cudaStreamSynchronize(streams[1]) or an event [cuda-async-unsynchronized-access]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the asynchronous copy is issued here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: on stream 'streams[1]', not synchronized before the access
  cudaStreamSynchronize(streams[1]);
  cudaFreeHost(pinned[0]);
  cudaFreeHost(pinned[1]);
}
