// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <array>
#include <cuda.h>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <sys/mman.h>
#include <vector>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      abort();                                                                 \
  } while (0)

__global__ void kernel(float *x) {}

// ---------------------------------------------------------------------------
// Pageable origins: each is a finding.

// The example of seed 001: malloc, then cudaMemcpyAsync on the legacy stream.
int seedExample() {
  int *h_data;
  int size = 1024 * 1024;
  h_data = (int *)malloc(size * sizeof(int));
  int *d_data;
  cudaMalloc((void **)&d_data, size * sizeof(int));
  cudaMemcpyAsync(d_data, h_data, size * sizeof(int), cudaMemcpyHostToDevice, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-5]]:19: note: pageable memory allocated here with 'malloc'
  cudaFree(d_data);
  free(h_data);
  return 0;
}

void fromCalloc(float *d, cudaStream_t s) {
  float *h = (float *)calloc(256, sizeof(float));
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'calloc'
}

void fromRealloc(float *d, cudaStream_t s) {
  float *h = (float *)malloc(16);
  h = (float *)realloc(h, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: pageable memory allocated here with 'realloc'
}

void fromAlignedAlloc(float *d, cudaStream_t s) {
  void *h = aligned_alloc(64, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: pageable memory allocated here with 'aligned_alloc'
}

void fromPosixMemalign(float *d, cudaStream_t s) {
  void *h;
  posix_memalign(&h, 64, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: pageable memory allocated here with 'posix_memalign'
}

void fromNewArray(float *d, cudaStream_t s) {
  float *h = new float[256];
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: pageable memory allocated here with 'new[]'
  cudaStreamSynchronize(s); // (pinned, the buffer would need this wait)
  delete[] h;
}

void fromNewObject(float *d, cudaStream_t s) {
  float *h = new (std::nothrow) float;
  cudaMemcpyAsync(d, h, sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: pageable memory allocated here with 'new'
}

void fromVector(float *d, cudaStream_t s) {
  std::vector<float> v(256);
  cudaMemcpyAsync(d, v.data(), 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: the storage of 'v' is pageable memory
  cudaMemcpyAsync(&v[0], d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:22: note: the storage of 'v' is pageable memory
  cudaStreamSynchronize(s); // (pinned, the buffer would need this wait)
}

void fromStdArrayAndString(float *d, cudaStream_t s) {
  std::array<float, 64> a{};
  std::string text = "hello";
  cudaMemcpyAsync(d, a.data(), sizeof(a), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: the storage of 'a' is pageable memory
  cudaMemcpyAsync(d, text.c_str(), 5, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:15: note: the storage of 'text' is pageable memory
  cudaStreamSynchronize(s); // (pinned, the buffer would need this wait)
}

void fromSmartPointers(float *d, cudaStream_t s) {
  std::unique_ptr<float[]> owned(new float[256]);
  auto made = std::make_unique<float[]>(256);
  cudaMemcpyAsync(d, owned.get(), 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-4]]:34: note: pageable memory allocated here with 'new[]'
  cudaMemcpyAsync(d, made.get(), 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:15: note: pageable memory allocated here with 'std::make_unique'
}

float globalTable[1024];

void fromStackGlobalAndStatic(float *d, cudaStream_t s) {
  float local[256];
  static float kept[256];
  float scalar = 1.0f;
  cudaMemcpyAsync(d, local, sizeof(local), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: 'local' is a local variable: its storage is pageable memory
  cudaMemcpyAsync(d, globalTable, sizeof(globalTable), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-11]]:7: note: 'globalTable' has static storage: pageable memory
  cudaMemcpyAsync(kept, d, sizeof(kept), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-10]]:16: note: 'kept' has static storage: pageable memory
  cudaMemcpyAsync(d, &scalar, sizeof(scalar), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-12]]:9: note: 'scalar' is a local variable: its storage is pageable memory
  cudaStreamSynchronize(s); // (pinned, the buffer would need this wait)
}

struct Batch {
  float samples[64];
};

void fromMemberArrayOfLocal(float *d, cudaStream_t s) {
  Batch b;
  cudaMemcpyAsync(d, b.samples, sizeof(b.samples), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'b' is a local variable: its storage is pageable memory
}

void fromMmap(float *d, cudaStream_t s) {
  void *h = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cudaMemcpyAsync(d, h, 4096, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-4]]:13: note: pageable memory allocated here with 'mmap'
}

// ---------------------------------------------------------------------------
// Every async copy API with a host side.

__device__ float deviceTable[256];

void everyRuntimeCopy(float *d, cudaArray_t array, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpy2DAsync(d, 64, h, 64, 64, 4, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2DAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpyToSymbolAsync(deviceTable, h, 1024, 0, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyToSymbolAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpyFromSymbolAsync(h, deviceTable, 1024, 0, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyFromSymbolAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-9]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpy2DToArrayAsync(array, 0, 0, h, 64, 64, 4, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2DToArrayAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-12]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpy2DFromArrayAsync(h, 64, array, 0, 0, 64, 4, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2DFromArrayAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-15]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpyAsync(h, h + 128, 512, cudaMemcpyHostToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-18]]:23: note: pageable memory allocated here with 'malloc'
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyDefault, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-21]]:23: note: pageable memory allocated here with 'malloc'
}

void everyDriverCopy(CUdeviceptr d, CUarray array, CUstream s) {
  char *h = (char *)malloc(1024);
  cuMemcpyHtoDAsync(d, h, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemcpyHtoDAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: pageable memory allocated here with 'malloc'
  cuMemcpyDtoHAsync(h, d, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemcpyDtoHAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:21: note: pageable memory allocated here with 'malloc'
  cuMemcpyHtoAAsync(array, 0, h, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemcpyHtoAAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-9]]:21: note: pageable memory allocated here with 'malloc'
  cuMemcpyAtoHAsync(h, array, 0, 1024, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cuMemcpyAtoHAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-12]]:21: note: pageable memory allocated here with 'malloc'
}

// ---------------------------------------------------------------------------
// Through expressions and control flow.

void throughArithmeticAndCasts(float *d, cudaStream_t s, size_t offset) {
  float *h = (float *)malloc(4096);
  float *cursor = h + offset;
  cudaMemcpyAsync(d, reinterpret_cast<const void *>(cursor + 4), 16,
                  cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-5]]:23: note: pageable memory allocated here with 'malloc'
  CUDA_CHECK(cudaMemcpyAsync(d, (void *)&h[8], 16, cudaMemcpyHostToDevice, s));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-8]]:23: note: pageable memory allocated here with 'malloc'
}

void reassignedFromPinnedToPageable(float *d, cudaStream_t s) {
  float *h;
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: pageable memory allocated here with 'malloc'
}

void registeredThenUnregistered(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaHostRegister(h, 1024, cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaHostUnregister(h);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-6]]:23: note: pageable memory allocated here with 'malloc'
}

void bothBranchesPageable(float *d, cudaStream_t s, bool big) {
  float *h = big ? (float *)malloc(4096) : new float[16];
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE-4]]:44: note: pageable memory allocated here with 'new[]'
}

// The 4-stream pipeline of seed 002, with malloc'd host buffers.
void mallocPipeline(float *d_in, float *d_out) {
  const int batches = 4, batch = 1024;
  float *h_in = (float *)malloc(batches * batch * sizeof(float));
  float *h_out = (float *)malloc(batches * batch * sizeof(float));
  cudaStream_t streams[batches];
  for (int i = 0; i < batches; i++)
    cudaStreamCreate(&streams[i]);
  for (int i = 0; i < batches; i++) {
    size_t offset = i * batch;
    cudaMemcpyAsync(d_in + offset, h_in + offset, batch * sizeof(float),
                    cudaMemcpyHostToDevice, streams[i]);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE-10]]:26: note: pageable memory allocated here with 'malloc'
    kernel<<<batch / 256, 256, 0, streams[i]>>>(d_out + offset);
    cudaMemcpyAsync(h_out + offset, d_out + offset, batch * sizeof(float),
                    cudaMemcpyDeviceToHost, streams[i]);
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'cudaMemcpyAsync' into pageable
    // CHECK-MESSAGES: :[[@LINE-14]]:27: note: pageable memory allocated here with 'malloc'
  }
  for (int i = 0; i < batches; i++)
    cudaStreamSynchronize(streams[i]);
}

void arrayOfPageableBuffers(float *d, cudaStream_t s) {
  float *buffers[4];
  for (int i = 0; i < 4; ++i)
    buffers[i] = (float *)malloc(1024);
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(d, buffers[i], 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-4]]:27: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s); // (pinned, the buffer would need this wait)
}

// Templates: analysed per instantiation, reported once where spelled.
template <typename T> void copyTemplate(T *d, cudaStream_t s) {
  T *h = new T[64];
  cudaMemcpyAsync(d, h, 64 * sizeof(T), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: pageable memory allocated here with 'new[]'
}
template void copyTemplate<float>(float *, cudaStream_t);
template void copyTemplate<double>(double *, cudaStream_t);

void inLambda(float *d, cudaStream_t s) {
  auto upload = [d, s]() {
    float *h = (float *)malloc(64);
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE-3]]:25: note: pageable memory allocated here with 'malloc'
  };
  upload();
}

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

void pinnedAllocations(float *d, cudaStream_t s, CUdeviceptr dd, CUstream cs) {
  float *a, *b, *c;
  void *e, *f;
  cudaMallocHost((void **)&a, 1024);
  cudaMallocHost(&b, 1024);
  cudaHostAlloc(reinterpret_cast<void **>(&c), 1024, cudaHostAllocDefault);
  cuMemAllocHost(&e, 1024);
  cuMemHostAlloc(&f, 1024, 0);
  cudaMemcpyAsync(d, a, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(b, d, 1024, cudaMemcpyDeviceToHost, s);
  cudaMemcpyAsync(d, c + 16, 64, cudaMemcpyHostToDevice, s);
  cuMemcpyHtoDAsync(dd, e, 1024, cs);
  cuMemcpyDtoHAsync(f, dd, 1024, cs);
}

void registeredMemory(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  std::vector<float> v(256);
  cudaHostRegister(h, 1024, cudaHostRegisterDefault);
  cudaHostRegister(v.data(), v.size() * sizeof(float), cudaHostRegisterPortable);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(v.data(), d, 1024, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(h);
  cudaHostUnregister(v.data());
}

__managed__ float managedTable[256];

void managedAndDeviceMemory(float *d, cudaStream_t s) {
  float *m, *dev, *dev2;
  cudaMallocManaged(&m, 1024);
  cudaMalloc(&dev, 1024);
  cudaMalloc(&dev2, 1024);
  cudaMemcpyAsync(d, m, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, managedTable, 1024, cudaMemcpyDefault, s);
  cudaMemcpyAsync(dev, dev2, 1024, cudaMemcpyDeviceToDevice, s);
  cudaMemcpyPeerAsync(dev, 1, dev2, 0, 1024, s);
}

void deviceToDeviceIgnoresHostMemory(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  // Wrong, but no host side: the copy says both pointers are device memory.
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyDeviceToDevice, s);
}

float *globalPointer;
float *makeBuffer(size_t n);
void fill(float **p);

void unknownOrigins(float *param, cudaStream_t s, float *d) {
  cudaMemcpyAsync(d, param, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, globalPointer, 1024, cudaMemcpyHostToDevice, s);
  float *fromCall = makeBuffer(256);
  cudaMemcpyAsync(d, fromCall, 1024, cudaMemcpyHostToDevice, s);
  float *escaped = (float *)malloc(1024);
  fill(&escaped);
  cudaMemcpyAsync(d, escaped, 1024, cudaMemcpyHostToDevice, s);
}

void pathsDisagree(float *d, cudaStream_t s, bool pin) {
  float *h;
  if (pin)
    cudaMallocHost(&h, 1024);
  else
    h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

void registeredOnOnePath(float *d, cudaStream_t s, bool pin) {
  float *h = (float *)malloc(1024);
  if (pin)
    cudaHostRegister(h, 1024, 0);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

void reassignedFromPageableToPinned(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  free(h);
  cudaMallocHost(&h, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

void blockingCopiesAreNotAsync(float *d) {
  float *h = (float *)malloc(1024);
  cudaMemcpy(d, h, 1024, cudaMemcpyHostToDevice);
  cudaMemset(d, 0, 1024);
}

void memsetsHaveNoHostSide(float *d, cudaStream_t s) {
  cudaMemsetAsync(d, 0, 1024, s);
}

void directionUnknown(float *d, cudaStream_t s, cudaMemcpyKind kind) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, kind, s);
}

template <typename T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(size_t n);
  void deallocate(T *p, size_t n);
};

void customAllocatorAndPlacementNew(float *d, cudaStream_t s) {
  std::vector<float, PinnedAllocator<float>> pinned(256);
  cudaMemcpyAsync(d, pinned.data(), 1024, cudaMemcpyHostToDevice, s);
  void *block;
  cudaMallocHost(&block, 1024);
  float *placed = new (block) float[16];
  cudaMemcpyAsync(d, placed, 64, cudaMemcpyHostToDevice, s);
}

void capturedByReference(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  auto repin = [&h]() { cudaMallocHost(&h, 64); };
  repin();
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

void pinnedArrayOfBuffers(float *d, cudaStream_t s) {
  float *buffers[4];
  for (int i = 0; i < 4; ++i)
    cudaMallocHost(&buffers[i], 1024);
  for (int i = 0; i < 4; ++i)
    cudaMemcpyAsync(d, buffers[i], 1024, cudaMemcpyHostToDevice, s);
}

void descriptorCopiesAreNotAnalysed(cudaStream_t s) {
  float local[64];
  cudaMemcpy3DParms p = {};
  p.srcPtr.ptr = local;
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&p, s);
}

template <typename T> void neverInstantiated(T *d, cudaStream_t s) {
  T *h = new T[4];
  cudaMemcpyAsync(d, h, sizeof(T) * 4, cudaMemcpyHostToDevice, s);
}

void unreachableCopy(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  return;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

void suppressedByNolint(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // NOLINT(cuda-async-pageable-copy)
  // NOLINTNEXTLINE(cuda-async-*)
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}

// NOLINT on the line of a macro's definition covers what it expands to.
#define QUIET_UPLOAD(d, h, s) cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s) // NOLINT(cuda-async-pageable-copy)
void suppressedInAMacro(float *d, cudaStream_t s) {
  float *h = (float *)malloc(64);
  QUIET_UPLOAD(d, h, s);
}

// Several findings on one line (generated code): one NOLINT covers them all;
// without it, each is reported.
// clang-format off
void suppressedOnOneLine(float *d, cudaStream_t s) { float *h = (float *)malloc(64); cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); } // NOLINT
void reportedOnOneLine(float *d, cudaStream_t s) { float *h = (float *)malloc(64); cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); }
// CHECK-MESSAGES: :[[@LINE-1]]:84: warning: 'cudaMemcpyAsync' from pageable host memory
// CHECK-MESSAGES: :[[@LINE-2]]:72: note: pageable memory allocated here
// CHECK-MESSAGES: :[[@LINE-3]]:138: warning: 'cudaMemcpyAsync' from pageable host memory
// CHECK-MESSAGES: :[[@LINE-4]]:72: note: pageable memory allocated here
// clang-format on

// ---------------------------------------------------------------------------
// Through allocation wrappers and fields of the translation unit.

float *makeStaging(size_t n) { return (float *)malloc(n); }
template <class T> T *makePinned(size_t n) {
  T *p;
  cudaMallocHost(&p, n * sizeof(T));
  return p;
}
float *makeRegistered(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  return p;
}
void allocatePageable(float **out, size_t n) { *out = new float[n]; }
void allocatePinned(float *&out, size_t n) { cudaMallocHost(&out, n); }

void throughWrappers(float *d, cudaStream_t s) {
  float *a = makeStaging(1024);
  cudaMemcpyAsync(d, a, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-18]]:48: note: pageable memory allocated here with 'malloc'
  float *b;
  allocatePageable(&b, 256);
  cudaMemcpyAsync(b, d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-12]]:55: note: pageable memory allocated here with 'new[]'
  float *c = makePinned<float>(256);
  float *e = makeRegistered(1024);
  float *f;
  allocatePinned(f, 1024);
  cudaMemcpyAsync(d, c, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, e, 1024, cudaMemcpyHostToDevice, s);
  cudaMemcpyAsync(d, f, 1024, cudaMemcpyHostToDevice, s);
}

class Uploader {
public:
  Uploader(size_t n) : bytes(n) {
    cudaMallocHost(&pinned, n);
    scratch = (float *)malloc(n);
  }
  void upload(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, pinned, bytes, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, scratch, bytes, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE-6]]:24: note: pageable memory allocated here with 'malloc'
  }

private:
  size_t bytes;
  float *pinned;
  float *scratch;
};

void useUploader(float *d, cudaStream_t s) {
  Uploader u(1024);
  u.upload(d, s);
}

// A field stored with pinned and pageable memory is unknown; a field
// registered in another method may be registered.
struct Reconfigured {
  float *host = nullptr;
  void pin(size_t n) { cudaMallocHost(&host, n); }
  void page(size_t n) { host = (float *)malloc(n); }
  void upload(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, s);
  }
};

struct PinnedInConstructor {
  float *host;
  PinnedInConstructor(size_t n) {
    host = (float *)malloc(n);
    cudaHostRegister(host, n, 0);
  }
  void upload(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, s);
  }
};

// A function of another translation unit may register what it is given.
void pinElsewhere(float *p, size_t n);
void pinnedByOpaqueFunction(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  pinElsewhere(h, 1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}

// MPI's calls neither pin nor release what they are given, though its
// header is included with -I (as mpicxx does), not as a system header.
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Comm;
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
float normReducedAcrossRanks(const float *dNorm, cudaStream_t s) {
  float *norm = (float *)malloc(sizeof(float));
  float total = 0.0f;
  MPI_Allreduce(norm, &total, 1, 0, 0, 0);
  cudaMemcpyAsync(norm, dNorm, sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous
  // CHECK-MESSAGES: :[[@LINE-5]]:26: note: pageable memory allocated here with 'malloc'
  cudaStreamSynchronize(s);
  free(norm);
  return total;
}

// ---------------------------------------------------------------------------
// A host access that relies on the copy being synchronous: pinning the
// buffer alone would turn it into a race, so the advice says to wait too.

void consumeValue(float v);

void readRightAfterDownload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous, and the read of 'h[0]' on line [[@LINE+4]] relies on that: to let it overlap, allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, and wait for the copy with cudaStreamSynchronize(s) or an event before that access [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE+2]]:16: note: 'h[0]' is read here, with no wait for the copy before it
  // The read is correct today only because the copy is synchronous.
  consumeValue(h[0]);
  cudaStreamSynchronize(s);
  free(h);
}

// A stack scalar or struct returned right after the copy: pinning it
// alone would race with the return.
struct MinMax {
  float lo, hi;
};

float scalarReturnedAfterDownload(const float *d, cudaStream_t s) {
  float x;
  cudaMemcpyAsync(&x, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous, and the read of 'x' on line [[@LINE+3]] relies on that: to let it overlap
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'x' is a local variable: its storage is pageable memory
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: 'x' is read here, with no wait for the copy before it
  return x;
}

MinMax structReturnedAfterDownload(const MinMax *d, cudaStream_t s) {
  MinMax m;
  cudaMemcpyAsync(&m, d, sizeof(MinMax), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous, and the read of 'm' on line [[@LINE+3]] relies on that: to let it overlap
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: 'm' is a local variable: its storage is pageable memory
  // CHECK-MESSAGES: :[[@LINE+1]]:10: note: 'm' is read here, with no wait for the copy before it
  return m;
}

// Waited for before the return: the plain advice.
float scalarWaitedForFirst(const float *d, cudaStream_t s) {
  float x;
  cudaMemcpyAsync(&x, d, sizeof(float), cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: 'x' is a local variable: its storage is pageable memory
  cudaStreamSynchronize(s);
  return x;
}

void writeRightAfterUpload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous, and the write of 'h[0]' on line [[@LINE+3]] relies on that
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: 'h[0]' is written here, with no wait for the copy before it
  h[0] = 1;
  cudaStreamSynchronize(s);
  free(h);
}

// Waits before the access: pinning alone is the fix.
void waitThenRead(float *d, cudaStream_t s, cudaEvent_t done) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);
  consumeValue(h[0]);
  free(h);
}

// Reading the source of an upload is no conflict.
void readAfterUpload(float *d, cudaStream_t s) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'malloc'
  consumeValue(h[0]);
  cudaStreamSynchronize(s);
  free(h);
}

// GNU's checked allocators return malloc's memory, wherever the project
// defines them.
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void copyFromXcalloc(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)xcalloc(n, sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous{{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:23: note: pageable memory allocated here with 'xcalloc'
  cudaStreamSynchronize(s);
  free(h);
}
// A project's own allocator in a namespace is not GNU's.
namespace pool {
void *xmalloc(size_t n);
}
void copyFromPoolXmalloc(float *d, size_t n, cudaStream_t s) {
  float *h = (float *)pool::xmalloc(n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
}

// A helper of external linkage (other units may pass pinned memory) that
// copies its parameter chunk by chunk in a loop, through a local alias of
// it: a caller's pageable buffer is staged chunk by chunk.
void uploadInChunks(unsigned n, const unsigned *source, unsigned char *d,
                    cudaStream_t s) {
  const unsigned char *bytes = (const unsigned char *)source;
  for (unsigned i = 0; i < n; i += 256)
    cudaMemcpyAsync(d + i, bytes + i, 256, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
}
// Another external helper that hands its parameter on.
void loadAndUpload(unsigned *source, unsigned n, unsigned char *d,
                   cudaStream_t s) {
  uploadInChunks(n, source, d, s);
}
void callsChunkedUpload(unsigned char *d, cudaStream_t s) {
  unsigned *data = (unsigned *)malloc(4096);
  loadAndUpload(data, 4096, d, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'loadAndUpload' copies from this pageable host memory with 'cudaMemcpyAsync', which is then staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-3]]:32: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE-13]]:5: note: the asynchronous copy
  uploadInChunks(4096, data, d, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'uploadInChunks' copies from this pageable host memory with 'cudaMemcpyAsync', which is then staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE-7]]:32: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE-17]]:5: note: the asynchronous copy
  free(data);
}
// Pinned memory handed through the same helpers: nothing to report.
void callsChunkedUploadPinned(unsigned char *d, cudaStream_t s) {
  unsigned *data;
  cudaMallocHost((void **)&data, 4096);
  loadAndUpload(data, 4096, d, s);
  uploadInChunks(4096, data, d, s);
  cudaFreeHost(data);
}

// A table of pointers, one host buffer per device.
void tableOfBuffers(float **d, cudaStream_t *s, int ngpus, size_t bytes) {
  float **h = (float **)malloc(sizeof(float *) * ngpus);
  float **pinned = (float **)malloc(sizeof(float *) * ngpus);
  for (int i = 0; i < ngpus; i++) {
    h[i] = (float *)malloc(bytes);
    cudaMallocHost((void **)&pinned[i], bytes);
  }
  for (int i = 0; i < ngpus; i++) {
    cudaMemcpyAsync(d[i], h[i], bytes, cudaMemcpyHostToDevice, s[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; allocate the buffer with cudaMallocHost or cudaHostAlloc, or pin it with cudaHostRegister, to let it overlap [cuda-async-pageable-copy]
    // CHECK-MESSAGES: :[[@LINE-6]]:21: note: pageable memory allocated here with 'malloc'
    cudaMemcpyAsync(d[i], pinned[i], bytes, cudaMemcpyHostToDevice, s[i]);
  }
}
