// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-pinned-alloc-in-loop' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pinned-alloc-in-loop' %s -- %cuda_args | %check_messages %s

#include <cstdlib>
#include <cuda.h>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      abort();                                                                 \
  } while (0)

void fill(float *h, int i);
void consume(const float *h);

// ---------------------------------------------------------------------------
// Pinned and released (or transferred) in every iteration.

void mallocHostAndFreeEachIteration(float *d, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    float *h;
    cudaMallocHost(&h, 1 << 20);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again; page-locking costs a system call per iteration and stalls the pipeline: allocate the buffer once before the loop and reuse it [cuda-async-pinned-alloc-in-loop]
    // CHECK-MESSAGES: :[[@LINE+5]]:5: note: released here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: the loop issues asynchronous transfers here
    fill(h, i);
    cudaMemcpyAsync(d, h, 1 << 20, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
    cudaFreeHost(h);
  }
}

void hostAllocAndFree(int n) {
  for (int i = 0; i < n; ++i) {
    char *h;
    cudaHostAlloc((void **)&h, 4096, cudaHostAllocDefault);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaHostAlloc' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(h);
  }
}

void driverApiAllocations(int n) {
  for (int i = 0; i < n; ++i) {
    void *a, *b;
    cuMemAllocHost(&a, 4096);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cuMemAllocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: released here, in the same iteration
    cuMemHostAlloc(&b, 4096, CU_MEMHOSTALLOC_PORTABLE);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cuMemHostAlloc' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: released here, in the same iteration
    cuMemFreeHost(a);
    cuMemFreeHost(b);
  }
}

void registerAndUnregisterEachIteration(float *d, int n, cudaStream_t s) {
  std::vector<float> staging(1 << 18);
  for (int i = 0; i < n; ++i) {
    cudaHostRegister(staging.data(), 1 << 20, cudaHostRegisterDefault);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaHostRegister' page-locks pinned memory in every iteration of a loop that unregisters it again; page-locking costs a system call per iteration and stalls the pipeline: register the buffer once before the loop and reuse it
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: unregistered here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the loop issues asynchronous transfers here
    cudaMemcpyAsync(d, staging.data(), 1 << 20, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
    cudaHostUnregister(staging.data());
  }
}

void driverRegisterEachIteration(float *h, int n) {
  for (int i = 0; i < n; ++i) {
    cuMemHostRegister(h, 4096, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cuMemHostRegister' page-locks pinned memory in every iteration of a loop that unregisters it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: unregistered here, in the same iteration
    cuMemHostUnregister(h);
  }
}

// Pinned each iteration and transferred, released after the loop (or never).
void allocateAndTransferEachIteration(float *d, int n, cudaStream_t s) {
  float *last = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMallocHost(&last, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that issues asynchronous transfers
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the loop issues asynchronous transfers here
    cudaMemcpyAsync(last, d, 1024, cudaMemcpyDeviceToHost, s);
  }
  cudaStreamSynchronize(s);
}

void whileLoop(float *d, cudaStream_t s, int n) {
  int i = 0;
  while (i++ < n) {
    float *h;
    CUDA_CHECK(cudaMallocHost(&h, 1024));
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(h);
  }
}

void doWhileLoop(int n) {
  int i = 0;
  do {
    float *h;
    cudaMallocHost(&h, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(h);
  } while (++i < n);
}

void rangeForLoop(const std::vector<int> &sizes) {
  for (int size : sizes) {
    float *h;
    cudaMallocHost(&h, size);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(h);
  }
}

void innerLoop(float *d, int epochs, int batches, cudaStream_t s) {
  for (int e = 0; e < epochs; ++e)
    for (int b = 0; b < batches; ++b) {
      float *h;
      if (cudaMallocHost(&h, 1024) != cudaSuccess)
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
        // CHECK-MESSAGES: :[[@LINE+4]]:7: note: released here, in the same iteration
        // CHECK-MESSAGES: :[[@LINE+2]]:7: note: the loop issues asynchronous transfers here
        return;
      cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
      cudaFreeHost(h);
    }
}

void arrayElementsReleasedInTheLoop(int n) {
  float *buffers[4];
  for (int i = 0; i < n; ++i) {
    cudaMallocHost(&buffers[i % 4], 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(buffers[i % 4]);
  }
}

template <typename T> void templateLoop(int n) {
  for (int i = 0; i < n; ++i) {
    T *h;
    cudaMallocHost(&h, sizeof(T));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: released here, in the same iteration
    cudaFreeHost(h);
  }
}
template void templateLoop<float>(int);
template void templateLoop<double>(int);

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

// A set-up loop pinning a fixed set of buffers.
void setUpLoop(float **buffers, int n) {
  for (int i = 0; i < n; ++i)
    cudaMallocHost(&buffers[i], 1 << 20);
}

void setUpRegistration(std::vector<std::vector<float>> &all) {
  for (auto &v : all)
    cudaHostRegister(v.data(), v.size() * sizeof(float), 0);
}

// Allocated once, reused by every iteration.
void allocateOnce(float *d, int n, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 1024);
  for (int i = 0; i < n; ++i) {
    fill(h, i);
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
    cudaStreamSynchronize(s);
  }
  cudaFreeHost(h);
}

// Allocated in the loop, released after it, no transfers in the loop.
void releasedAfterTheLoop(float **buffers, int n) {
  for (int i = 0; i < n; ++i)
    cudaHostAlloc(&buffers[i], 1024, 0);
  for (int i = 0; i < n; ++i)
    cudaFreeHost(buffers[i]);
}

// Pageable, managed and device allocations are not pinning.
void otherAllocations(float *d, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    float *pageable = (float *)malloc(1024);
    float *managed, *device;
    cudaMallocManaged(&managed, 1024);
    cudaMalloc(&device, 1024);
    cudaMemcpyAsync(device, d, 1024, cudaMemcpyDeviceToDevice, s);
    free(pageable);
    cudaFree(managed);
    cudaFree(device);
  }
}

// Another buffer released, no transfers: a rotation of allocations is
// another pattern.
void releasesAnotherBuffer(int n) {
  float *previous = nullptr;
  for (int i = 0; i < n; ++i) {
    float *next;
    cudaMallocHost(&next, 1024);
    cudaFreeHost(previous);
    previous = next;
  }
  cudaFreeHost(previous);
}

// The lambda is a function of its own: the loop around it does not run its
// body once per iteration of the lambda's own code.
void lambdaInLoop(int n) {
  for (int i = 0; i < n; ++i) {
    auto scratch = [] {
      float *h;
      cudaMallocHost(&h, 64);
      cudaFreeHost(h);
    };
    (void)scratch;
  }
}

// A transfer in the loop that pins nothing.
void copiesOnly(float *d, float *h, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i)
    cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

template <typename T> void neverInstantiated(int n) {
  for (int i = 0; i < n; ++i) {
    T *h;
    cudaMallocHost(&h, sizeof(T));
    cudaFreeHost(h);
  }
}

// ---------------------------------------------------------------------------
// The loop's transfers happen in a helper of this translation unit.

static void uploadChunk(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}
static void processChunk(float *d, const float *h, cudaStream_t s) {
  uploadChunk(d, h, s);
}
static void checksum(const float *h, float *sum) { *sum += h[0]; }

void pinsWhileAHelperCopies(float *d, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    float *h;
    cudaMallocHost(&h, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that issues asynchronous transfers; page-locking costs a system call per iteration and stalls the pipeline: allocate the buffer once before the loop and reuse it [cuda-async-pinned-alloc-in-loop]
    // CHECK-MESSAGES: :[[@LINE+1]]:5: note: the loop issues asynchronous transfers here
    processChunk(d, h, s);
  }
}

// A helper that copies nothing: a set-up loop.
void pinsWhileAHelperReads(float **bufs, float *sum, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMallocHost(&bufs[i], 1024);
    checksum(bufs[i], sum);
  }
}

// A set-up loop over devices: one pinned buffer per device, kept after the
// loop, or a buffer pinned in the first iteration only, while each
// iteration runs a helper that copies.
void perDeviceSetUp(float **perDevice, float *d, int devices,
                    cudaStream_t s) {
  float *reference = nullptr;
  for (int dev = 0; dev < devices; ++dev) {
    if (0 == dev)
      cudaMallocHost(&reference, 1024);
    cudaMallocHost(perDevice + dev, 1024);
    cudaMallocHost(&perDevice[dev], 1024);
    processChunk(d, perDevice[dev], s);
  }
  cudaFreeHost(reference);
}

// ---------------------------------------------------------------------------
// A helper that pins a buffer of its own and releases it before it returns
// pins at every call; called in a loop, at every iteration (nccl-tests'
// CheckData pins its error counters at each check of each size).

int checkData(const float *d, int n) {
  long *wrong = nullptr;
  CUDA_CHECK(cudaHostAlloc((void **)&wrong, sizeof(long), cudaHostAllocMapped));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaHostAlloc' allocates pinned memory that 'checkData' releases before it returns, and 'checkData' is called in every iteration of a loop; page-locking costs a system call per call and stalls the pipeline: allocate the buffer once outside the loop and pass it in [cuda-async-pinned-alloc-in-loop]
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: released here, on every call
  // CHECK-MESSAGES: :[[@LINE+9]]:11: note: 'checkData' is called here, in a loop
  int result = *wrong == 0;
  cudaFreeHost(wrong);
  return result;
}

int benchEachSize(const float *d, int sizes) {
  int ok = 1;
  for (int size = 1; size <= sizes; size *= 2)
    ok &= checkData(d, size);
  return ok;
}

void registerPerCall(float *h, int n, float *d, cudaStream_t s) {
  cudaHostRegister(h, n, cudaHostRegisterDefault);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaHostRegister' page-locks pinned memory that 'registerPerCall' unregisters before it returns, and 'registerPerCall' is called in every iteration of a loop; page-locking costs a system call per call and stalls the pipeline: register the buffer once outside the loop and pass it in
  // CHECK-MESSAGES: :[[@LINE+4]]:14: note: unregistered here, on every call
  // CHECK-MESSAGES: :[[@LINE+9]]:5: note: 'registerPerCall' is called here, in a loop
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  CUDA_CHECK(cudaHostUnregister(h));
}

void uploadEachBatch(float **batches, int n, float *d, cudaStream_t s) {
  int i = 0;
  while (i < n) {
    registerPerCall(batches[i], 1024, d, s);
    ++i;
  }
}

void pinThroughPointer(float **out) {
  cudaMallocHost(out, 1024);
  cudaFreeHost(*out);
}

// A member pinned and released by a method called in a loop.
struct Cache {
  float *pinned = nullptr;
  void refresh() {
    cudaMallocHost(&pinned, 1024);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory that 'refresh' releases before it returns, and 'refresh' is called in every iteration of a loop
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: released here, on every call
    // CHECK-MESSAGES: :[[@LINE+7]]:5: note: 'refresh' is called here, in a loop
    cudaFreeHost(pinned);
  }
};

void refreshAll(Cache *caches, float **outs, int n) {
  for (int i = 0; i < n; ++i) {
    caches[i].refresh();
    pinThroughPointer(&outs[i]);
  }
}

// Not reported: the helper is called outside any loop (or in a
// 'do { } while (0)'); it keeps what it pinned for its caller, releasing
// it on one path only; it pins through a pointer it was given (whose
// target is not known); or nothing calls it.
int checkOnce(const float *d) {
  long *wrong;
  cudaMallocHost(&wrong, sizeof(long));
  int result = *wrong == 0;
  cudaFreeHost(wrong);
  return result;
}

int runOnce(const float *d) {
  int ok = checkOnce(d);
  do {
    ok &= checkOnce(d);
  } while (0);
  return ok;
}

// Released only where the check fails (the condition's branch), or only
// where the copy was made.
void releaseOnError(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 1024);
  if (cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s) != cudaSuccess)
    cudaFreeHost(h);
  bool copied =
      cudaStreamQuery(s) == cudaSuccess && cudaFreeHost(h) == cudaSuccess;
  (void)copied;
}

void uploadsUntilDone(float *d, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i)
    releaseOnError(d, s);
}

float *pinnedStaging(size_t n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess) {
    cudaFreeHost(h);
    return nullptr;
  }
  return h;
}

void stagingPerDevice(float **staging, int devices) {
  for (int dev = 0; dev < devices; ++dev)
    staging[dev] = pinnedStaging(1024);
}

// multi-gpu-programming-models: the single-GPU reference run, once, in the
// first iteration of the loop over devices.
double singleGpu(int n) {
  float *norm;
  cudaMallocHost(&norm, sizeof(float));
  double result = *norm;
  cudaFreeHost(norm);
  return result;
}

double referenceOnFirstDevice(int devices) {
  double serial = 0;
  for (int dev = 0; dev < devices; ++dev) {
    cudaSetDevice(dev);
    if (0 == dev)
      serial = singleGpu(1024);
  }
  return serial;
}

void pinsUnused() {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaFreeHost(h);
}

// Allocation retry loops (shoc's BusSpeedReadback): they go round again
// only when the pinned allocation failed, with a smaller size; they pin once.
void retriesSmaller(size_t n) {
  float *h1, *h2;
  cudaMallocHost((void **)&h1, n);
  cudaError_t err1 = cudaGetLastError();
  cudaMallocHost((void **)&h2, n);
  cudaError_t err2 = cudaGetLastError();
  while (err1 != cudaSuccess || err2 != cudaSuccess) {
    if (err1 == cudaSuccess)
      cudaFreeHost(h1);
    n /= 2;
    cudaMallocHost((void **)&h1, n);
    err1 = cudaGetLastError();
    cudaMallocHost((void **)&h2, n);
    err2 = cudaGetLastError();
  }
  float *h3;
  while (cudaMallocHost((void **)&h3, n) != cudaSuccess)
    n /= 2;
  cudaFreeHost(h1);
  cudaFreeHost(h2);
  cudaFreeHost(h3);
}

// A loop that goes round while a copy succeeds pins in every iteration.
void pinsWhileCopiesSucceed(float *d, size_t n, cudaStream_t s) {
  cudaError_t err = cudaSuccess;
  while (err == cudaSuccess) {
    float *h;
    cudaMallocHost((void **)&h, n);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again; page-locking costs a system call per iteration and stalls the pipeline: allocate the buffer once before the loop and reuse it [cuda-async-pinned-alloc-in-loop]
    err = cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: released here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE-2]]:11: note: the loop issues asynchronous transfers here
    cudaFreeHost(h);
  }
}

// A loop on a flag the device sets (rodinia's BFS): not an error code.
void pinsWhileNotDone(float *d, size_t n, cudaStream_t s) {
  bool stop;
  do {
    bool *h;
    cudaMallocHost((void **)&h, sizeof(bool));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMallocHost' allocates pinned memory in every iteration of a loop that releases it again; page-locking costs a system call per iteration and stalls the pipeline: allocate the buffer once before the loop and reuse it [cuda-async-pinned-alloc-in-loop]
    cudaMemcpyAsync(h, d, sizeof(bool), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE+4]]:5: note: released here, in the same iteration
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the loop issues asynchronous transfers here
    cudaStreamSynchronize(s);
    stop = *h;
    cudaFreeHost(h);
  } while (stop);
}
