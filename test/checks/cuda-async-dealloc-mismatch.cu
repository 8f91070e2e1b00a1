// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch' %s -- %cuda_args | %check_messages %s
// The other configuration of the #if-selected allocators: no new finding.
// RUN: not %lint_bin --checks='-*,cuda-async-dealloc-mismatch' %s -- %cuda_args -DUSE_PINNED=0 | %check_messages %s
// Fix-its, applied by each front-end.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/lint.cu && cp %s %t/tidy.cu
// RUN: not %lint --checks='-*,cuda-async-dealloc-mismatch' --fix %t/lint.cu > %t/lint.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/lint.cu
// RUN: %tidy --checks='-*,cuda-async-dealloc-mismatch' --fix %t/tidy.cu -- %cuda_args > %t/tidy.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/tidy.cu
// RUN: diff %t/lint.cu %t/tidy.cu

#include <cstdlib>
#include <cuda.h>
#include <new>
#include <tuple>
#include <utility>

#ifndef USE_PINNED
#define USE_PINNED 1
#endif

#define RELEASE(p) free(p)

// ---------------------------------------------------------------------------
// Pinned memory released by free, delete or realloc.

void freeOfMallocHost() {
  float *p;
  cudaMallocHost(&p, 1024);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}

void freeOfHostAlloc() {
  char *p;
  cudaHostAlloc(reinterpret_cast<void **>(&p), 1024, cudaHostAllocMapped);
  std::free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaHostAlloc'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}

void deleteArrayOfMallocHost() {
  double *samples;
  cudaMallocHost((void **)&samples, 64 * sizeof(double));
  delete[] samples;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(samples);{{$}}
}

void deleteOfPinnedObject() {
  int *counter;
  cudaMallocHost(&counter, sizeof(int));
  delete counter;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(counter);{{$}}
}

void reallocOfPinned() {
  float *p;
  cudaMallocHost(&p, 1024);
  p = (float *)realloc(p, 2048);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'realloc' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  p = (float *)realloc(p, 2048);{{$}}
  free(p);
}

void freeOfDriverPinned() {
  void *p;
  cuMemAllocHost(&p, 1024);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cuMemFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cuMemAllocHost'
  // CHECK-FIXES: {{^}}  cuMemFreeHost(p);{{$}}
}

void freeOfPinnedInMacro() {
  float *p;
  cudaMallocHost(&p, 64);
  RELEASE(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-65]]:20: note: expanded from macro 'RELEASE'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  RELEASE(p);{{$}}
}

// ---------------------------------------------------------------------------
// Host memory released by cudaFreeHost or cudaFree.

void cudaFreeHostOfMalloc() {
  float *p = (float *)malloc(1024);
  cudaFreeHost(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-FIXES: {{^}}  free(p);{{$}}
}

void cudaFreeHostOfCalloc() {
  int *p = (int *)calloc(16, sizeof(int));
  cudaFreeHost(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: pageable memory allocated here with 'calloc'
  // CHECK-FIXES: {{^}}  free(p);{{$}}
}

void cudaFreeHostOfNewArray() {
  float *p = new float[16];
  cudaFreeHost(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases pageable memory; release it with 'delete[]'
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: pageable memory allocated here with 'new[]'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}

void cuMemFreeHostOfMalloc() {
  void *p = malloc(64);
  cuMemFreeHost(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemFreeHost' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: pageable memory allocated here with 'malloc'
  // CHECK-FIXES: {{^}}  free(p);{{$}}
}

void cudaFreeHostOfDeviceAndManaged() {
  float *d, *m;
  cudaMalloc(&d, 64);
  cudaMallocManaged(&m, 64);
  cudaFreeHost(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases device memory; release it with 'cudaFree'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: device memory allocated here with 'cudaMalloc'
  cudaFreeHost(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases managed memory; release it with 'cudaFree'
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: managed memory allocated here with 'cudaMallocManaged'
}

void cudaFreeHostOfRegistered() {
  float *p = (float *)malloc(64);
  cudaHostRegister(p, 64, cudaHostRegisterDefault);
  cudaFreeHost(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases registered pageable memory; unregister it with 'cudaHostUnregister' and release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: pageable memory allocated here with 'malloc'
}

void cudaFreeOfHostMemory() {
  float *pinned, *pageable = (float *)malloc(64);
  cudaMallocHost(&pinned, 64);
  cudaFree(pinned);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  cudaFree(pageable);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases pageable memory; release it with 'free'
  // CHECK-MESSAGES: :[[@LINE-7]]:39: note: pageable memory allocated here with 'malloc'
  cudaFreeAsync(pinned, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeAsync' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-9]]:3: note: pinned memory allocated here with 'cudaMallocHost'
}

// ---------------------------------------------------------------------------
// Device memory released by free or delete.

void freeOfDeviceMemory() {
  float *d, *m;
  cudaMalloc((void **)&d, 64);
  cudaMallocManaged(&m, 64);
  free(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases device memory; release it with 'cudaFree'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: device memory allocated here with 'cudaMalloc'
  delete[] m;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases managed memory; release it with 'cudaFree'
  // CHECK-MESSAGES: :[[@LINE-6]]:3: note: managed memory allocated here with 'cudaMallocManaged'
}

// ---------------------------------------------------------------------------
// Through allocation wrappers and fields of the translation unit.

float *allocatePinned(size_t n) {
  float *p;
  cudaMallocHost(&p, n * sizeof(float));
  return p;
}

template <class T> T *makePinned(size_t n) {
  T *p;
  cudaMallocHost(&p, n * sizeof(T));
  return p;
}

void allocateInto(float **out, size_t n) { cudaMallocHost(out, n); }

void throughWrappers() {
  float *a = allocatePinned(16);
  free(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-16]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(a);{{$}}
  double *b = makePinned<double>(16);
  delete[] b;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-15]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(b);{{$}}
  float *c;
  allocateInto(&c, 64);
  free(c);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-17]]:44: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(c);{{$}}
}

// The bug of the issue: delete[] of cudaMallocHost memory in a destructor.
class PinnedFrame {
public:
  explicit PinnedFrame(size_t n) { cudaMallocHost(&pixels, n); }
  ~PinnedFrame() {
    delete[] pixels;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'delete[]' releases pinned memory; release it with 'cudaFreeHost'
    // CHECK-MESSAGES: :[[@LINE-4]]:36: note: pinned memory allocated here with 'cudaMallocHost'
    // CHECK-FIXES: {{^}}    cudaFreeHost(pixels);{{$}}
  }

private:
  unsigned char *pixels;
};

void usePinnedFrame() { PinnedFrame frame(1024); }

struct DeviceBuffers {
  float *input = nullptr;
  void init(size_t n) { cudaMalloc(&input, n); }
  void release() { free(input); }
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'free' releases device memory; release it with 'cudaFree'
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: device memory allocated here with 'cudaMalloc'
};

template <typename T> void releaseTemplate(size_t n) {
  T *p;
  cudaMallocHost(&p, n * sizeof(T));
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}
template void releaseTemplate<float>(size_t);
template void releaseTemplate<int>(size_t);

void bothPathsPinned(bool big) {
  float *p;
  if (big)
    cudaMallocHost(&p, 4096);
  else
    cudaHostAlloc(&p, 64, cudaHostAllocDefault);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: pinned memory allocated here with 'cudaHostAlloc'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

void rightReleasers() {
  float *pinned, *device, *managed;
  cudaMallocHost(&pinned, 64);
  cudaMalloc(&device, 64);
  cudaMallocManaged(&managed, 64);
  float *pageable = (float *)malloc(64);
  float *array = new float[4];
  float *object = new float;
  cudaFreeHost(pinned);
  cudaFree(device);
  cudaFree(managed);
  free(pageable);
  delete[] array;
  delete object;
}

// Pinned memory when available, pageable otherwise; released after asking
// the runtime which one it got.
void chosenAtRunTime(size_t n) {
  float *p;
  if (cudaMallocHost(&p, n) != cudaSuccess)
    p = (float *)malloc(n);
  cudaPointerAttributes attributes;
  cudaPointerGetAttributes(&attributes, p);
  if (attributes.type == cudaMemoryTypeHost)
    cudaFreeHost(p);
  else
    free(p);
}

// A stored flag chooses the allocator and the releaser alike.
void chosenByFlag(size_t n, bool pinned) {
  float *p;
  if (pinned)
    cudaMallocHost(&p, n);
  else
    p = (float *)malloc(n);
  if (pinned)
    cudaFreeHost(p);
  else
    free(p);
}

// The preprocessor chooses the allocator and the releaser alike.
void chosenByPreprocessor(size_t n) {
  float *p;
#if USE_PINNED
  cudaMallocHost(&p, n);
#else
  p = (float *)malloc(n);
#endif
#if USE_PINNED
  cudaFreeHost(p);
#else
  free(p);
#endif
}

// A pool hands out interior pointers of one pinned block and releases the
// block once.
class PinnedPool {
public:
  explicit PinnedPool(size_t bytes) { cudaMallocHost(&block, bytes); }
  ~PinnedPool() { cudaFreeHost(block); }
  float *take(size_t offset) { return (float *)(block + offset); }
  void giveBack(float *) {}

private:
  char *block;
};

void usePool() {
  PinnedPool pool(1 << 20);
  float *a = pool.take(0);
  float *b = pool.take(4096);
  pool.giveBack(a);
  pool.giveBack(b);
}

// Pointers that arrive as parameters are not known.
void releaseParameter(float *p, float *q) {
  free(p);
  cudaFreeHost(q);
}

// A field stored with two kinds of memory is unknown.
struct Mixed {
  float *data = nullptr;
  void pin(size_t n) { cudaMallocHost(&data, n); }
  void page(size_t n) { data = (float *)malloc(n); }
  void release() { free(data); }
};

// A field whose address escapes is unknown.
void allocateSomehow(float **p);
struct Escapes {
  float *data;
  Escapes() { cudaMallocHost(&data, 64); }
  void refill() { allocateSomehow(&data); }
  ~Escapes() { free(data); }
};

// std::make_pair and std::make_tuple copy what they are given (their
// forwarding references are read): a getter that returns the member in a
// pair leaves its provenance known (faiss's resources object).
struct PinnedStaging {
  void *mem = nullptr;
  size_t bytes = 0;
  void init(size_t n) {
    cudaHostAlloc(&mem, n, cudaHostAllocDefault);
    bytes = n;
  }
  std::pair<void *, size_t> get() { return std::make_pair(mem, bytes); }
  std::tuple<void *, size_t> all() { return std::make_tuple(mem, bytes); }
  ~PinnedStaging() {
    free(mem);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: pinned memory allocated here with 'cudaHostAlloc'
    // CHECK-FIXES: {{^}}    cudaFreeHost(mem);{{$}}
  }
};

void pairOfLocal() {
  float *p;
  cudaMallocHost(&p, 64);
  auto held = std::make_pair(p, 64);
  (void)held;
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases pinned memory; release it with 'cudaFreeHost'
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-FIXES: {{^}}  cudaFreeHost(p);{{$}}
}

// std::tie binds for writing: a member assigned through it is unknown.
std::pair<void *, size_t> otherBlock();
struct TiedStaging {
  void *mem = nullptr;
  size_t bytes = 0;
  void init(size_t n) { cudaHostAlloc(&mem, n, cudaHostAllocDefault); }
  void swapIn() { std::tie(mem, bytes) = otherBlock(); }
  ~TiedStaging() { free(mem); }
};
void tiedLocal() {
  void *p;
  size_t n;
  cudaHostAlloc(&p, 64, cudaHostAllocDefault);
  std::tie(p, n) = otherBlock();
  free(p);
}

float *fromElsewhere(size_t n);
void unknownOrigin() {
  float *p = fromElsewhere(16);
  cudaFreeHost(p);
}

// A class's own operator delete is not the global one.
struct PoolAllocated {
  static void operator delete(void *p);
  int value;
};
void classOperatorDelete() {
  PoolAllocated *p;
  cudaMallocHost(&p, sizeof(PoolAllocated));
  delete p;
}

// Storage nobody allocated is another bug, not a release mismatch.
void stackStorage() {
  float local[16];
  (void)local;
}

// realloc of pageable memory is right.
void reallocPageable() {
  float *p = (float *)malloc(16);
  p = (float *)realloc(p, 32);
  free(p);
}

// Registered memory freed with free: host-register-leak's business.
void registeredThenFreed() {
  float *p = (float *)malloc(64);
  cudaHostRegister(p, 64, 0);
  cudaHostUnregister(p);
  free(p);
}

// A recursive allocator is opaque.
float *recursiveAllocate(int depth) {
  if (depth == 0) {
    float *p;
    cudaMallocHost(&p, 64);
    return p;
  }
  return recursiveAllocate(depth - 1);
}
void useRecursive() {
  float *p = recursiveAllocate(3);
  cudaFreeHost(p);
}

template <typename T> void neverInstantiated() {
  T *p;
  cudaMallocHost(&p, sizeof(T));
  free(p);
}

// CUDA's releasers given storage no allocator returned fail
// (cudaErrorInvalidValue): a local array of device pointers given whole,
// where its elements were meant.
void freeTheArrayOfDevicePointers(size_t n) {
  int *d[2];
  cudaMalloc(&d[0], n);
  cudaMalloc(&d[1], n);
  cudaFree(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFree' releases host memory that no allocator returned, and fails; it is an array of pointers: release each element ('cudaFree(d[i])') [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'd' is a local variable: its storage is pageable memory
}

void freeHostAStackBuffer() {
  float staging[64];
  cudaFreeHost(staging);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaFreeHost' releases host memory that no allocator returned, and fails [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'staging' is a local variable: its storage is pageable memory
}

// Each element, as meant: device memory.
void freeEachDevicePointer(size_t n) {
  int *d[2];
  cudaMalloc(&d[0], n);
  cudaMalloc(&d[1], n);
  for (int i = 0; i < 2; ++i)
    cudaFree(d[i]);
}

// A cleanup function of external linkage (other units may hand it malloc'd
// memory) that frees its parameters: a call handing it pinned memory is
// where the mismatch happens.
void cleanupBuffers(signed char *text, int *key) {
  free(key);
  if (text)
    free(text);
}
void releasesPinnedThroughCleanup(size_t n) {
  int *key;
  signed char *text;
  cudaMallocHost(&key, n);
  cudaMallocHost(&text, n);
  cleanupBuffers(text, key);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'cleanupBuffers' releases this pinned memory with 'free'; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: pinned memory allocated here with 'cudaMallocHost'
  // CHECK-MESSAGES: :[[@LINE-12]]:3: note: the release
}
// malloc'd memory, as the function expects (text's release is under a
// branch: not taken as the function's).
void releasesPageableThroughCleanup(size_t n) {
  cleanupBuffers((signed char *)malloc(n), (int *)malloc(n));
}

// Tables of pointers, one buffer per device, allocated element by element.
void tablesOfPointers(int ngpus, size_t bytes) {
  float **pinned = (float **)malloc(sizeof(float *) * ngpus);
  float **pageable = (float **)malloc(sizeof(float *) * ngpus);
  float **fresh = new float *[ngpus];
  for (int i = 0; i < ngpus; i++) {
    cudaMallocHost((void **)&pinned[i], bytes);
    pageable[i] = (float *)malloc(bytes);
    cudaMallocHost((void **)&fresh[i], bytes);
  }
  for (int i = 0; i < ngpus; i++) {
    free(pinned[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: pinned memory allocated here with 'cudaMallocHost'
    free(pageable[i]);
    delete[] fresh[i];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'delete[]' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
    // CHECK-MESSAGES: :[[@LINE-9]]:5: note: pinned memory allocated here with 'cudaMallocHost'
  }
  free(pinned);
  free(pageable);
  delete[] fresh;
}

// A table handed whole to a function: it may store anything into it.
void fillTable(float **table, int n);
void tableHandedOn(int n) {
  float **table = (float **)malloc(sizeof(float *) * n);
  for (int i = 0; i < n; i++)
    cudaMallocHost((void **)&table[i], 64);
  fillTable(table, n);
  for (int i = 0; i < n; i++)
    free(table[i]);
  free(table);
}

// Allocation and release under two switches on one unchanged value
// (cuda-samples UnifiedMemoryPerf): each case releases what the cases of
// the same value allocated, whatever the others hold.
enum HostMemory { Pageable, Pinned, PinnedAsync, ZeroCopy };
float consumed;
void consumeHost(float *h) { consumed = h[0]; }
void switchPaired(HostMemory kind, size_t bytes) {
  float *h = nullptr;
  switch (kind) {
  case Pageable:
    h = (float *)malloc(bytes);
    break;
  case Pinned:
  case PinnedAsync:
    cudaMallocHost((void **)&h, bytes);
    break;
  case ZeroCopy:
    cudaHostAlloc((void **)&h, bytes, cudaHostAllocMapped);
    break;
  }
  consumeHost(h);
  switch (kind) {
  case Pageable:
    free(h);
    break;
  case Pinned:
    free(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
    // CHECK-MESSAGES: :[[@LINE-14]]:5: note: pinned memory allocated here with 'cudaMallocHost'
    break;
  case PinnedAsync:
    consumeHost(h);
  case ZeroCopy:
    // Reached from PinnedAsync too: both pinned.
    cudaFreeHost(h);
    break;
  }
}

// The pageable case's memory given to cudaFreeHost in its own case.
void switchPairedPageable(HostMemory kind, size_t bytes) {
  float *h = nullptr;
  switch (kind) {
  case Pageable:
    h = (float *)malloc(bytes);
    break;
  default:
    cudaMallocHost((void **)&h, bytes);
    break;
  }
  consumeHost(h);
  switch (kind) {
  case Pageable:
    cudaFreeHost(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaFreeHost' releases pageable memory; release it with 'free' [cuda-async-dealloc-mismatch]
    // CHECK-MESSAGES: :[[@LINE-11]]:18: note: pageable memory allocated here with 'malloc'
    break;
  default:
    // Every value but Pageable: the first switch's default, pinned.
    free(h);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases pinned memory; release it with 'cudaFreeHost' [cuda-async-dealloc-mismatch]
    // CHECK-MESSAGES: :[[@LINE-14]]:5: note: pinned memory allocated here with 'cudaMallocHost'
    break;
  }
}

// The value changes between the switches: the cases no longer pair.
HostMemory fallback(HostMemory kind);
void switchValueChanges(HostMemory kind, size_t bytes) {
  float *h = nullptr;
  switch (kind) {
  case Pageable:
    h = (float *)malloc(bytes);
    break;
  case Pinned:
    cudaMallocHost((void **)&h, bytes);
    break;
  default:
    return;
  }
  kind = fallback(kind);
  switch (kind) {
  case Pinned:
    free(h);
    break;
  default:
    cudaFreeHost(h);
    break;
  }
}
