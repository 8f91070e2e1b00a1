// The storage of a std::vector or std::string with the default allocator is
// pageable wherever the object lives: a data member, a reference parameter.
// Both front-ends, one set of expectations; any other warning or note fails.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <memory>
#include <string>
#include <vector>

namespace thrust {
// As thrust/host_vector.h declares it: std::allocator by default.
template <typename T, typename Alloc = std::allocator<T>> class host_vector {
public:
  T *data();
};
} // namespace thrust

template <typename T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(size_t n);
  void deallocate(T *p, size_t n);
};

class Uploader {
public:
  void upload(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, buf_.data(), bytes_, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE+13]]:22: note: the storage of member 'buf_' (default allocator) is pageable memory
    cudaMemcpyAsync(d, &buf_[0], bytes_, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE+10]]:22: note: the storage of member 'buf_' (default allocator) is pageable memory
    cudaMemcpyAsync(d, name_.c_str(), name_.size(), cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE+8]]:15: note: the storage of member 'name_' (default allocator) is pageable memory
    // A vector with a pinned allocator: not pageable.
    cudaMemcpyAsync(d, pinned_.data(), bytes_, cudaMemcpyHostToDevice, s);
  }

private:
  size_t bytes_ = 0;
  std::vector<float> buf_;
  std::string name_;
  std::vector<float, PinnedAllocator<float>> pinned_;
};

void fromReference(float *d, const std::vector<float> &v, cudaStream_t s) {
  cudaMemcpyAsync(d, v.data(), v.size() * sizeof(float),
                  cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-4]]:56: note: the storage of 'v' (default allocator) is pageable memory
}

void intoReference(float *d, std::vector<float> &out, cudaStream_t s) {
  cudaMemcpyAsync(out.data(), d, 1024, cudaMemcpyDeviceToHost, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' into pageable
  // CHECK-MESSAGES: :[[@LINE-3]]:50: note: the storage of 'out' (default allocator) is pageable memory
}

void fromHostVector(float *d, thrust::host_vector<float> &h,
                    thrust::host_vector<float, PinnedAllocator<float>> &p,
                    cudaStream_t s) {
  cudaMemcpyAsync(d, h.data(), 1024, cudaMemcpyHostToDevice, s);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' from pageable
  // CHECK-MESSAGES: :[[@LINE-5]]:59: note: the storage of 'h' (default allocator) is pageable memory
  cudaMemcpyAsync(d, p.data(), 1024, cudaMemcpyHostToDevice, s);
}

// A pointer parameter says nothing of where it points.
void fromPointer(float *d, const float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s);
}
