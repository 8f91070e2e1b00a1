// Global pointers and global arrays of pointers: what every function of the
// unit stores into them, joined (as for fields). The staging buffers of a
// multi-stream pipeline are often globals allocated in main's loop and used
// by the functions it calls. Each global below is declared in this file only,
// so no other unit can store into it.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy,cuda-async-dealloc-mismatch,cuda-async-host-register-leak' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy,cuda-async-dealloc-mismatch,cuda-async-host-register-leak' %s -- %cuda_args | %check_messages %s

#include <cstdlib>
#include <cstring>

constexpr int kStreams = 4;
constexpr size_t kBytes = 1 << 20;

int *stagingIn[kStreams];
int *stagingOut[kStreams];
float *pinnedResult = nullptr;
static float *pageableResult;

void allocateStaging() {
  for (int i = 0; i < kStreams; ++i) {
    stagingIn[i] = (int *)malloc(kBytes);
    cudaHostAlloc(&stagingOut[i], kBytes, cudaHostAllocDefault);
  }
  cudaMallocHost(&pinnedResult, kBytes);
  pageableResult = new float[kBytes / sizeof(float)];
}

void issue(int *d, float *dResult, cudaStream_t *streams) {
  for (int i = 0; i < kStreams; ++i) {
    cudaMemcpyAsync(d, stagingIn[i], kBytes, cudaMemcpyHostToDevice,
                    streams[i]);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' from pageable host memory
    // CHECK-MESSAGES: :[[@LINE-12]]:27: note: pageable memory allocated here with 'malloc'
    cudaMemcpyAsync(stagingOut[i], d, kBytes, cudaMemcpyDeviceToHost,
                    streams[i]);
  }
  cudaMemcpyAsync(pinnedResult, dResult, kBytes, cudaMemcpyDeviceToHost,
                  streams[0]);
  cudaMemcpyAsync(pageableResult, dResult, kBytes, cudaMemcpyDeviceToHost,
                  streams[1]);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' into pageable host memory
  // CHECK-MESSAGES: :[[@LINE-17]]:20: note: pageable memory allocated here with 'new[]'
}

void releaseStaging() {
  for (int i = 0; i < kStreams; ++i) {
    free(stagingIn[i]);
    delete[] stagingOut[i];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'delete[]' releases pinned memory; release it with 'cudaFreeHost'
    // CHECK-MESSAGES: :[[@LINE-28]]:5: note: pinned memory allocated here with 'cudaHostAlloc'
  }
  cudaFreeHost(pinnedResult);
  delete[] pageableResult;
}

// Registered in main's setup, released at its end still registered; the
// functions called between see the same memory.
float *registeredInput;
float *unregisteredInput;
void useInputs(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, registeredInput, kBytes, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, unregisteredInput, kBytes, cudaMemcpyHostToDevice, s);
}
void unregisterInput() { cudaHostUnregister(unregisteredInput); }

int main() {
  float *d;
  cudaStream_t s;
  registeredInput = (float *)malloc(kBytes);
  cudaHostRegister(registeredInput, kBytes, cudaHostRegisterDefault);
  unregisteredInput = (float *)malloc(kBytes);
  cudaHostRegister(unregisteredInput, kBytes, cudaHostRegisterDefault);
  useInputs(d, s);
  unregisterInput();
  free(registeredInput);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-7]]:3: note: registered here with 'cudaHostRegister'
  free(unregisteredInput);
  return 0;
}

// Pinned by a helper that registers what the global holds.
float *pinnedByHelper;
float *unpinnedByHelper;
void pinGlobals() {
  cudaHostRegister(pinnedByHelper, kBytes, cudaHostRegisterDefault);
  cudaHostRegister(unpinnedByHelper, kBytes, cudaHostRegisterDefault);
}
void unpinOne() { cudaHostUnregister(unpinnedByHelper); }
void runHelpers() {
  pinnedByHelper = (float *)malloc(kBytes);
  unpinnedByHelper = (float *)malloc(kBytes);
  pinGlobals();
  unpinOne();
  free(pinnedByHelper);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-11]]:3: note: registered here with 'cudaHostRegister'
  free(unpinnedByHelper);
}

// ---------------------------------------------------------------------------
// Negative cases: what other code may have put there stays unknown.

// Stored with two kinds of memory: unknown.
float *either;
void pickEither(bool pinned) {
  if (pinned)
    cudaMallocHost(&either, kBytes);
  else
    either = (float *)malloc(kBytes);
}
void copyEither(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, either, kBytes, cudaMemcpyHostToDevice, s);
}

// Its address escapes into a function that may store anything there.
float *escapes;
float **handle = &escapes;
void allocEscapes() { escapes = (float *)malloc(kBytes); }
void copyEscapes(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, escapes, kBytes, cudaMemcpyHostToDevice, s);
}

// An array of pointers handed whole to a function: its elements may be set.
void fillAll(float **slots);
float *slots[2];
void allocSlots() {
  slots[0] = (float *)malloc(kBytes);
  fillAll(slots);
}
void copySlots(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, slots[0], kBytes, cudaMemcpyHostToDevice, s);
}

// Initialized with something other than null: not analysed.
float pool[1024];
float *fromPool = pool;
void copyPool(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, fromPool, 64, cudaMemcpyHostToDevice, s);
}

// Declared 'extern' in a header another unit includes: that unit may store
// into it (a line directive puts the declaration in a header).
# 1 "shared_buffers.h" 1
extern float *sharedBuffer;
# 148 "cuda-async-pageable-copy-globals.cu" 2
float *sharedBuffer;
void allocShared() { sharedBuffer = (float *)malloc(kBytes); }
void copyShared(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, sharedBuffer, kBytes, cudaMemcpyHostToDevice, s);
}

// Only declared here, defined elsewhere: unknown.
extern float *definedElsewhere;
void allocElsewhere() { definedElsewhere = (float *)malloc(kBytes); }
void copyElsewhere(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, definedElsewhere, kBytes, cudaMemcpyHostToDevice, s);
}

// A global pointer's element is not the global: 'g[i] = p' stores into the
// memory g points to, not into g.
float **table;
void allocTable() {
  cudaMallocHost(&table, kStreams * sizeof(float *));
  table[0] = (float *)malloc(kBytes);
}
void copyTable(float *d, cudaStream_t s) {
  cudaMemcpyAsync(d, table[0], kBytes, cudaMemcpyHostToDevice, s);
}

// A static local, allocated pinned once: pinned.
void lazyPinned(float *d, cudaStream_t s) {
  static float *buffer = nullptr;
  if (!buffer)
    cudaMallocHost(&buffer, kBytes);
  cudaMemcpyAsync(d, buffer, kBytes, cudaMemcpyHostToDevice, s);
}
