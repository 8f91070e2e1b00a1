// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

// A buffer class template over an allocator policy: each instantiation's
// member has its policy's provenance. A copy whose direction is a parameter
// takes the direction every call passes, where the translation unit holds
// every call its body runs for (an instantiation, an inline or a static
// function).
#include <cuda_runtime.h>
#include <stdlib.h>

struct MallocAllocator {
  static void *allocate(size_t n) { return malloc(n); }
};
struct PinnedAllocator {
  static void *allocate(size_t n) {
    void *p = nullptr;
    cudaMallocHost(&p, n);
    return p;
  }
};

template <class Allocator> class Buffer {
  float *data_;
  size_t bytes_;

public:
  explicit Buffer(size_t n)
      : data_(static_cast<float *>(Allocator::allocate(n))), bytes_(n) {}
  void upload(float *dev, cudaStream_t s) {
    cudaMemcpyAsync(dev, data_, bytes_, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
    // CHECK-MESSAGES: :13:44: note: pageable memory allocated here with 'malloc'
  }
  void transfer(float *dev, cudaMemcpyKind kind, cudaStream_t s) {
    if (kind == cudaMemcpyHostToDevice)
      cudaMemcpyAsync(dev, data_, bytes_, kind, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'cudaMemcpyAsync' from pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
    // CHECK-MESSAGES: :13:44: note: pageable memory allocated here with 'malloc'
    // CHECK-MESSAGES: :[[@LINE+18]]:3: note: the copy's direction, parameter 'kind', is the same at every call, as here
    else
      cudaMemcpyAsync(data_, dev, bytes_, kind, s);
  }
  // Directions that differ from call to call: not known.
  void either(float *dev, cudaMemcpyKind kind, cudaStream_t s) {
    cudaMemcpyAsync(data_, dev, bytes_, kind, s);
  }
  // A direction the body changes: not the callers'.
  void changed(float *dev, cudaMemcpyKind kind, cudaStream_t s) {
    kind = cudaMemcpyDefault;
    cudaMemcpyAsync(data_, dev, bytes_, kind, s);
  }
};

void run(float *dev, cudaStream_t s) {
  Buffer<MallocAllocator> staged(1 << 20);
  staged.upload(dev, s);
  staged.transfer(dev, cudaMemcpyHostToDevice, s);
  staged.transfer(dev, cudaMemcpyHostToDevice, s);
  staged.either(dev, cudaMemcpyHostToDevice, s);
  staged.either(dev, cudaMemcpyDeviceToHost, s);
  staged.changed(dev, cudaMemcpyDeviceToHost, s);

  // The pinned policy: nothing to report.
  Buffer<PinnedAllocator> pinned(1 << 20);
  pinned.upload(dev, s);
  pinned.transfer(dev, cudaMemcpyHostToDevice, s);
  pinned.transfer(dev, cudaMemcpyDeviceToHost, s);
}

// A static helper whose direction is a parameter, every call alike.
static void copyInto(float *host, const float *dev, size_t n,
                     cudaMemcpyKind kind, cudaStream_t s) {
  cudaMemcpyAsync(host, dev, n, kind, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable host memory is staged and synchronous; {{.*}} [cuda-async-pageable-copy]
  // CHECK-MESSAGES: :[[@LINE+12]]:23: note: pageable memory allocated here with 'malloc'
  // CHECK-MESSAGES: :[[@LINE+12]]:3: note: the copy's direction, parameter 'kind', is the same at every call, as here
}
// A function with external linkage: callers elsewhere may pass any kind.
void copyExported(float *host, const float *dev, size_t n, cudaMemcpyKind kind,
                  cudaStream_t s) {
  float *local = (float *)malloc(n);
  cudaMemcpyAsync(local, dev, n, kind, s);
  (void)host;
}

void helpers(const float *dev, size_t n, cudaStream_t s) {
  float *h = (float *)malloc(n);
  copyInto(h, dev, n, cudaMemcpyDeviceToHost, s);
  copyExported(h, dev, n, cudaMemcpyDeviceToHost, s);
}
