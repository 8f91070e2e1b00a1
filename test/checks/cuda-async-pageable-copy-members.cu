// The data members of '*this' live in the object, in host memory: an async
// copy of '&count_' or of a member array is from pageable memory, unless the
// class allocates its objects itself (the unified-memory Managed base).
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <cstddef>

class Counter {
public:
  void publish(int *d, cudaStream_t s) {
    cudaMemcpyAsync(d, &count_, sizeof(count_), cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE+9]]:7: note: 'count_' is a data member of '*this', an object in pageable host memory
    cudaMemcpyAsync(history_, d, sizeof(history_), cudaMemcpyDeviceToHost, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' into pageable
    // CHECK-MESSAGES: :[[@LINE+7]]:7: note: 'history_' is a data member of '*this', an object in pageable host memory
    // Through a pointer member: where it points, not the object.
    cudaMemcpyAsync(d, pinned_, 64, cudaMemcpyHostToDevice, s);
  }

private:
  int count_ = 0;
  int history_[16];
  int *pinned_ = nullptr;
};

// NVIDIA's unified-memory pattern: objects allocated with cudaMallocManaged.
class Managed {
public:
  void *operator new(size_t len) {
    void *ptr;
    cudaMallocManaged(&ptr, len);
    cudaDeviceSynchronize();
    return ptr;
  }
  void operator delete(void *ptr) { cudaFree(ptr); }
};

class Particles : public Managed {
public:
  void prefetch(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, &mass_, sizeof(mass_), cudaMemcpyHostToDevice, s);
  }

private:
  float mass_ = 1.0f;
};
