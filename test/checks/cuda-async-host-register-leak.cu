// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-host-register-leak' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-host-register-leak' %s -- %cuda_args | %check_messages %s
// Fix-its, applied by each front-end.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/lint.cu && cp %s %t/tidy.cu
// RUN: not %lint --checks='-*,cuda-async-host-register-leak' --fix %t/lint.cu > %t/lint.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/lint.cu
// RUN: %tidy --checks='-*,cuda-async-host-register-leak' --fix %t/tidy.cu -- %cuda_args > %t/tidy.out 2>&1
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/tidy.cu
// RUN: diff %t/lint.cu %t/tidy.cu

#include <cstdlib>
#include <cuda.h>
#include <sys/mman.h>

#define RELEASE(p) free(p)

void use(float *p) { p[0] = 1.0f; }

// ---------------------------------------------------------------------------
// Released while registered: each is a finding.

void freeWhileRegistered(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, cudaHostRegisterDefault);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  free(p);{{$}}
}

void deleteArrayWhileRegistered(size_t n) {
  double *samples = new double[n];
  cudaHostRegister(samples, n * sizeof(double), cudaHostRegisterPortable);
  delete[] samples;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(samples);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  delete[] samples;{{$}}
}

struct Header {
  int count;
};

void deleteObjectWhileRegistered() {
  Header *h = new Header;
  cudaHostRegister(h, sizeof(Header), 0);
  delete h;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(h);{{$}}
}

void reallocWhileRegistered(size_t n) {
  char *p = (char *)malloc(n);
  cudaHostRegister(p, n, 0);
  char *q = (char *)realloc(p, 2 * n);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'realloc' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  free(q);
}

void driverApiRegistration(size_t n) {
  void *p = malloc(n);
  cuMemHostRegister(p, n, CU_MEMHOSTREGISTER_PORTABLE);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cuMemHostUnregister' first
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cuMemHostRegister'
  // CHECK-FIXES: {{^}}  cuMemHostUnregister(p);{{$}}
}

void munmapWhileRegistered(size_t n) {
  void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cudaHostRegister(p, n, 0);
  munmap(p, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'munmap' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

void registeredThroughInteriorPointer(size_t n) {
  float *p = (float *)malloc(n * sizeof(float));
  cudaHostRegister(p + 0, n * sizeof(float), 0);
  std::free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

void registeredOnBothPaths(size_t n, bool portable) {
  float *p = (float *)malloc(n);
  if (portable)
    cudaHostRegister(p, n, cudaHostRegisterPortable);
  else
    cudaHostRegister(p, n, cudaHostRegisterDefault);
  use(p);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-6]]:5: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

void releasedInsideBlock(size_t n, bool done) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  if (done) {
    free(p);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(p);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    free(p);{{$}}
  }
}

// No fix-it where inserting a statement would change the meaning.
void releasedWithoutBraces(size_t n, bool done) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  if (done)
    free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  if (done){{$}}
  // CHECK-FIXES-NEXT: {{^}}    free(p);{{$}}
}

void releasedInMacro(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  RELEASE(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-119]]:20: note: expanded from macro 'RELEASE'
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  RELEASE(p);{{$}}
}

void releasedWithSideEffects(float **buffers, size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  buffers[0] = p;
  free(buffers[0] = p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  free(buffers[0] = p);{{$}}
}

void registerAndReleaseEachIteration(size_t n, int batches) {
  for (int b = 0; b < batches; ++b) {
    float *staging = (float *)malloc(n);
    cudaHostRegister(staging, n, 0);
    use(staging);
    free(staging);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(staging);{{$}}
  }
}

// Through functions of the translation unit.
void pin(float *p, size_t n) { cudaHostRegister(p, n, 0); }

void registeredByHelper(size_t n) {
  float *p = (float *)malloc(n);
  pin(p, n);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered by this call
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

float *allocateRegistered(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  return p;
}

void registeredByAllocator(size_t n) {
  float *p = allocateRegistered(n);
  delete[] p;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'delete[]' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

// An out-parameter allocator that registers what it stored (simpleStreams'
// allocateHostMemory), read back through the out-parameter.
void allocateRegisteredInto(float **pp, size_t n) {
  *pp = (float *)malloc(n);
  cudaHostRegister(*pp, n, 0);
}

void registeredThroughOutParameter(size_t n) {
  float *p = nullptr;
  allocateRegisteredInto(&p, n);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}

void unregisteredAfterOutParameter(size_t n) {
  float *p = nullptr;
  allocateRegisteredInto(&p, n);
  cudaHostUnregister(p);
  free(p);
}

template <typename T> void releaseTemplate(size_t n) {
  T *p = (T *)malloc(n * sizeof(T));
  cudaHostRegister(p, n * sizeof(T), 0);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
}
template void releaseTemplate<float>(size_t);
template void releaseTemplate<char>(size_t);

// Registration succeeded: the failure branch returned.
bool freedAfterCheckedRegistration(size_t n) {
  float *p = (float *)malloc(n);
  if (cudaHostRegister(p, n, 0) != cudaSuccess) {
    free(p);
    return false;
  }
  use(p);
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered
  // CHECK-MESSAGES: :[[@LINE-7]]:7: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostUnregister(p);{{$}}
  return true;
}

// ---------------------------------------------------------------------------
// Negative cases: none of these is a finding.

void unregisteredFirst(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  use(p);
  cudaHostUnregister(p);
  free(p);
}

void driverUnregisteredFirst(size_t n) {
  void *p = malloc(n);
  cuMemHostRegister(p, n, 0);
  cuMemHostUnregister(p);
  free(p);
}

void neverRegistered(size_t n) {
  float *p = (float *)malloc(n);
  use(p);
  free(p);
}

void registeredOnOnePath(size_t n, bool pin) {
  float *p = (float *)malloc(n);
  if (pin)
    cudaHostRegister(p, n, 0);
  free(p);
}

void unregisteredOnOnePath(size_t n, bool done) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  if (done)
    cudaHostUnregister(p);
  free(p);
}

// The failure branch of cudaHostRegister registered nothing.
bool failedRegistration(size_t n) {
  float *p = (float *)malloc(n);
  if (cudaHostRegister(p, n, 0) != cudaSuccess) {
    free(p);
    return false;
  }
  cudaHostUnregister(p);
  free(p);
  return true;
}

bool failedRegistrationThroughVariable(size_t n) {
  float *p = (float *)malloc(n);
  cudaError_t err = cudaHostRegister(p, n, 0);
  if (err) {
    free(p);
    return false;
  }
  cudaHostUnregister(p);
  free(p);
  return true;
}

bool failedRegistrationChecked(size_t n) {
  float *p = (float *)malloc(n);
  if (cudaHostRegister(p, n, 0) == cudaSuccess) {
    cudaHostUnregister(p);
  } else {
    free(p);
    return false;
  }
  free(p);
  return true;
}

// Pinned memory is not registered memory.
void pinnedMemory(size_t n) {
  float *p;
  cudaMallocHost(&p, n);
  cudaFreeHost(p);
}

// cudaFreeHost of registered memory is a release mismatch, not this check's.
void registeredReleasedWithCudaFreeHost(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  cudaFreeHost(p);
}

// Parameters: whether the caller registered them is not known.
void releaseParameter(float *p) { free(p); }

// A function of another translation unit may unregister what it gets.
void unpinElsewhere(float *p);
void passedToOpaqueFunction(size_t n) {
  float *p = (float *)malloc(n);
  cudaHostRegister(p, n, 0);
  unpinElsewhere(p);
  free(p);
}

// A helper that pins and unpins leaves nothing registered.
void uploadPinned(float *p, size_t n, float *d) {
  cudaHostRegister(p, n, 0);
  cudaMemcpy(d, p, n, cudaMemcpyHostToDevice);
  cudaHostUnregister(p);
}
void pinnedForOneUpload(size_t n, float *d) {
  float *p = (float *)malloc(n);
  uploadPinned(p, n, d);
  free(p);
}

// Registered in one method, released in another: the order of the calls
// is not known.
class Staging {
public:
  explicit Staging(size_t n) : n(n) {
    data = (float *)malloc(n);
    cudaHostRegister(data, n, 0);
  }
  void unpin() { cudaHostUnregister(data); }
  ~Staging() { free(data); }

private:
  size_t n;
  float *data;
};

void registeredTwiceUnregisteredOnce(size_t n) {
  float *a = (float *)malloc(n);
  float *b = (float *)malloc(n);
  cudaHostRegister(a, n, 0);
  cudaHostRegister(b, n, 0);
  cudaHostUnregister(a);
  cudaHostUnregister(b);
  free(a);
  free(b);
}

template <typename T> void neverInstantiated(size_t n) {
  T *p = (T *)malloc(n);
  cudaHostRegister(p, n, 0);
  free(p);
}

// A local array of plain structs, one per device: its elements' fields
// share one value, and the loop that allocates and registers each element
// leaves them all registered (the first iteration's "not allocated yet"
// joins as nothing, not as "unregistered").
struct DeviceInput {
  float *h;
  size_t n;
};
void takeInputs(DeviceInput *inputs, int count);
void registeredPerDevice(int devices) {
  DeviceInput in[8];
  for (int i = 0; i < devices; i++) {
    in[i].n = 1 << 20;
    in[i].h = (float *)malloc(in[i].n);
    cudaHostRegister(in[i].h, in[i].n, 0);
  }
  for (int i = 0; i < devices; i++)
    free(in[i].h);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}    cudaHostUnregister(in[i].h);{{$}}
}
void unregisteredPerDevice(int devices) {
  DeviceInput in[8];
  for (int i = 0; i < devices; i++) {
    in[i].h = (float *)malloc(1024);
    cudaHostRegister(in[i].h, 1024, 0);
  }
  for (int i = 0; i < devices; i++) {
    cudaHostUnregister(in[i].h);
    free(in[i].h);
  }
}
// Registered on some iterations only.
void registeredOnSomeDevices(int devices) {
  DeviceInput in[8];
  for (int i = 0; i < devices; i++) {
    in[i].h = (float *)malloc(1024);
    if (i % 2)
      cudaHostRegister(in[i].h, 1024, 0);
  }
  for (int i = 0; i < devices; i++)
    free(in[i].h);
}
// Handed to a function, or aliased by a pointer: its fields may be others.
void inputsHandedOver(int devices) {
  DeviceInput in[8];
  for (int i = 0; i < devices; i++) {
    in[i].h = (float *)malloc(1024);
    cudaHostRegister(in[i].h, 1024, 0);
  }
  takeInputs(in, devices);
  for (int i = 0; i < devices; i++)
    free(in[i].h);
}
void inputsAliased(int devices, float *other) {
  DeviceInput in[8];
  DeviceInput *alias = in;
  for (int i = 0; i < devices; i++) {
    in[i].h = (float *)malloc(1024);
    cudaHostRegister(in[i].h, 1024, 0);
  }
  alias[0].h = other;
  for (int i = 0; i < devices; i++)
    free(in[i].h);
}

// Registered through an aligned alias of the allocation (the alignment
// macros' integer round trip keeps the allocation); cudaHostUnregister
// needs the aligned address, so no fix names the raw one.
#define ALIGN_UP(x, size) (((size_t)x + (size - 1)) & (~(size - 1)))
void registeredAligned(size_t bytes) {
  float *raw = (float *)malloc(bytes + 4096);
  float *aligned = (float *)ALIGN_UP(raw, 4096);
  cudaHostRegister(aligned, bytes, 0);
  free(raw);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: registered here with 'cudaHostRegister'
  // CHECK-FIXES: {{^}}  cudaHostRegister(aligned, bytes, 0);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  free(raw);{{$}}
}
void unregisteredAligned(size_t bytes) {
  float *raw = (float *)malloc(bytes + 4096);
  float *aligned = (float *)(((size_t)raw + 4095) & ~(size_t)4095);
  cudaHostRegister(aligned, bytes, 0);
  cudaHostUnregister(aligned);
  free(raw);
}
// Two pointers in one address computation: no allocation is known.
void differenceOfPointers(float *a, size_t bytes) {
  float *raw = (float *)malloc(bytes);
  float *mixed = (float *)((size_t)raw + ((size_t)a & 4095));
  cudaHostRegister(mixed, bytes, 0);
  free(raw);
}
// simpleZeroCopy's shape: generic memory registered or mapped memory
// allocated, chosen by one flag tested twice. On the path that allocated
// with malloc, the aligned alias is still registered at the free.
bool pinGeneric = false;
void chosenByFlag(size_t bytes) {
  float *a, *rawA = nullptr;
  if (pinGeneric) {
    rawA = (float *)malloc(bytes + 4096);
    a = (float *)ALIGN_UP(rawA, 4096);
    cudaHostRegister(a, bytes, cudaHostRegisterMapped);
  } else {
    cudaHostAlloc((void **)&a, bytes, cudaHostAllocMapped);
  }
  if (pinGeneric) {
    free(rawA);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: registered here with 'cudaHostRegister'
  } else {
    cudaFreeHost(a);
  }
}
void chosenByFlagUnregistered(size_t bytes) {
  float *a, *rawA = nullptr;
  if (pinGeneric) {
    rawA = (float *)malloc(bytes + 4096);
    a = (float *)ALIGN_UP(rawA, 4096);
    cudaHostRegister(a, bytes, cudaHostRegisterMapped);
  } else {
    cudaHostAlloc((void **)&a, bytes, cudaHostAllocMapped);
  }
  if (pinGeneric) {
    cudaHostUnregister(a);
    free(rawA);
  } else {
    cudaFreeHost(a);
  }
}
// Unregistering one of two such buffers leaves the other registered: 'b'
// is of no known kind (malloc'ed or mapped), but it is one of two
// allocations, neither of them 'a''s.
void twoChosenByFlag(size_t bytes) {
  float *a, *b, *rawA = nullptr, *rawB = nullptr;
  if (pinGeneric) {
    rawA = (float *)malloc(bytes + 4096);
    rawB = (float *)malloc(bytes + 4096);
    a = (float *)ALIGN_UP(rawA, 4096);
    b = (float *)ALIGN_UP(rawB, 4096);
    cudaHostRegister(a, bytes, cudaHostRegisterMapped);
    cudaHostRegister(b, bytes, cudaHostRegisterMapped);
  } else {
    cudaHostAlloc((void **)&a, bytes, cudaHostAllocMapped);
    cudaHostAlloc((void **)&b, bytes, cudaHostAllocMapped);
  }
  if (pinGeneric) {
    cudaHostUnregister(b);
    free(rawA);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
    // CHECK-MESSAGES: :[[@LINE-10]]:5: note: registered here with 'cudaHostRegister'
    free(rawB);
  } else {
    cudaFreeHost(a);
    cudaFreeHost(b);
  }
}
// A pointer the analysis knows nothing about may be any registered buffer.
void unregisteredUnknown(size_t bytes, float **slots) {
  float *p = (float *)malloc(bytes);
  cudaHostRegister(p, bytes, 0);
  cudaHostUnregister(slots[0]);
  free(p);
}

// ---------------------------------------------------------------------------
// A buffer member registered for the object's life: registered in one member
// function, released in another.

class ErrorCounter {
public:
  ErrorCounter() {
    count = (int *)malloc(sizeof(int));
    cudaHostRegister(count, sizeof(int), cudaHostRegisterDefault);
  }
  ~ErrorCounter() {
    free(count);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
    // CHECK-MESSAGES: :[[@LINE-5]]:5: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(count);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    free(count);{{$}}
  }
  int *count;
};

// cholla's Poisson solver: one block, two halves, registered once; the
// destructor clears the members after the release.
class StagingHalves {
public:
  explicit StagingHalves(size_t n) : bytes(n * sizeof(double)) {
    ha = new double[2 * n];
    hb = ha + n;
    check(cudaHostRegister(ha, bytes + bytes, cudaHostRegisterDefault));
  }
  ~StagingHalves() {
    delete[] ha;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'delete[]' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first
    // CHECK-MESSAGES: :[[@LINE-5]]:11: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(ha);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    delete[] ha;{{$}}
    ha = hb = nullptr;
  }
  static void check(cudaError_t) {}
  double *ha, *hb;
  size_t bytes;
};

// jetson-utils' cudaFont: the constructor sets the member to null, an init
// allocates and registers it, its failure checked; the destructor frees it.
class FontMap {
public:
  FontMap() : map(nullptr) { map = NULL; }
  bool init(size_t n) {
    map = (unsigned char *)malloc(n);
    if (cudaHostRegister(map, n, cudaHostRegisterMapped) != cudaSuccess)
      return false;
    return true;
  }
  ~FontMap() {
    free(map);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first
    // CHECK-MESSAGES: :[[@LINE-7]]:9: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(map);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    free(map);{{$}}
  }
  unsigned char *map;
};

// jetson-utils' cudaAllocMapped: every test of the '||' fails on the path
// that goes on, so each ran, the registration among them.
class RegisteredInOrChain {
public:
  RegisteredInOrChain() : map(nullptr) {}
  bool init(size_t n) {
    map = (unsigned char *)malloc(n);
    if (!map ||
        cudaHostRegister(map, n, cudaHostRegisterMapped) != cudaSuccess)
      return false;
    return true;
  }
  ~RegisteredInOrChain() {
    free(map);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first
    // CHECK-MESSAGES: :[[@LINE-7]]:9: note: registered here with 'cudaHostRegister'
    // CHECK-FIXES: {{^}}    cudaHostUnregister(map);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    free(map);{{$}}
  }
  unsigned char *map;
};

// Registered only where an earlier test of '&&' holds: the path that goes
// on may not have run it.
class RegisteredAfterAnd {
public:
  RegisteredAfterAnd() : map(nullptr) {}
  bool init(size_t n, bool pin) {
    map = (unsigned char *)malloc(n);
    if (pin && cudaHostRegister(map, n, cudaHostRegisterMapped) != cudaSuccess)
      return false;
    return true;
  }
  ~RegisteredAfterAnd() { free(map); }
  unsigned char *map;
};

// The releaser points the member at another buffer: it sets it up itself.
class ReleaserReassigns {
public:
  ReleaserReassigns() {
    count = (int *)malloc(sizeof(int));
    cudaHostRegister(count, sizeof(int), cudaHostRegisterDefault);
  }
  void swapOut(int *other) {
    free(count);
    count = other;
  }
  int *count;
};

// Unregistered before it is freed.
class UnregistersFirst {
public:
  UnregistersFirst() {
    count = (int *)malloc(sizeof(int));
    cudaHostRegister(count, sizeof(int), cudaHostRegisterDefault);
  }
  ~UnregistersFirst() {
    cudaHostUnregister(count);
    free(count);
  }
  int *count;
};

// Registered only sometimes.
class RegistersSometimes {
public:
  explicit RegistersSometimes(bool pin) {
    count = (int *)malloc(sizeof(int));
    if (pin)
      cudaHostRegister(count, sizeof(int), cudaHostRegisterDefault);
  }
  ~RegistersSometimes() { free(count); }
  int *count;
};

// Pointed elsewhere by another member function.
class Reassigned {
public:
  Reassigned() {
    count = (int *)malloc(sizeof(int));
    cudaHostRegister(count, sizeof(int), cudaHostRegisterDefault);
  }
  void reset(int *other) { count = other; }
  ~Reassigned() { free(count); }
  int *count;
};

// A cleanup label reached by the error paths (a failed allocation, a failed
// registration: nothing to unregister there) and by the path that
// registered: freed still registered.
int cleanupAfterRegistering(size_t n, bool fail) {
  float *p = NULL;
  cudaError_t err;
  if (fail)
    goto cleanup;
  p = (float *)malloc(n);
  if (!p)
    goto cleanup;
  err = cudaHostRegister(p, n, cudaHostRegisterDefault);
  if (err != cudaSuccess)
    goto cleanup;
cleanup:
  free(p);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
  // CHECK-MESSAGES: :[[@LINE-6]]:9: note: registered here with 'cudaHostRegister'
  return err;
}

// The path that registered unregisters before the label: nothing leaks.
int cleanupAfterUnregistering(size_t n) {
  float *p = (float *)malloc(n);
  if (p == NULL)
    goto cleanup;
  if (cudaHostRegister(p, n, cudaHostRegisterDefault) != cudaSuccess)
    goto cleanup;
  cudaHostUnregister(p);
cleanup:
  free(p);
  return 0;
}

// A table of pointers, each element registered in the set-up loop and
// freed in the clean-up loop.
void tableRegistered(int ngpus, size_t bytes) {
  float **h = (float **)malloc(sizeof(float *) * ngpus);
  float **done = (float **)malloc(sizeof(float *) * ngpus);
  for (int i = 0; i < ngpus; i++) {
    h[i] = (float *)malloc(bytes);
    cudaHostRegister(h[i], bytes, cudaHostRegisterDefault);
    done[i] = (float *)malloc(bytes);
    cudaHostRegister(done[i], bytes, cudaHostRegisterDefault);
  }
  for (int i = 0; i < ngpus; i++) {
    free(h[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'free' releases memory that is still registered with the CUDA driver; call 'cudaHostUnregister' first [cuda-async-host-register-leak]
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: registered here with 'cudaHostRegister'
    cudaHostUnregister(done[i]);
    free(done[i]);
  }
  free(h);
  free(done);
}
