// Container storage registered with cudaHostRegister is not pageable: a
// member registered in one member function and copied in another, and, once
// the translation unit registers any container's storage, a vector behind a
// reference (its caller may have registered it). A member nobody registers
// is still reported.
// RUN: not %lint --checks='-*,cuda-async-pageable-copy' %s | %check_messages %s
// RUN: %tidy --checks='-*,cuda-async-pageable-copy' %s -- %cuda_args | %check_messages %s

#include <vector>

class Staging {
public:
  explicit Staging(size_t n) : buf_(n), other_(n) {
    cudaHostRegister(buf_.data(), n * sizeof(float), cudaHostRegisterDefault);
  }
  void upload(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, buf_.data(), 1024, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, other_.data(), 1024, cudaMemcpyHostToDevice, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaMemcpyAsync' from pageable
    // CHECK-MESSAGES: :[[@LINE+5]]:22: note: the storage of member 'other_' (default allocator) is pageable memory
  }

private:
  std::vector<float> buf_;
  std::vector<float> other_;
};

void send(float *d, const std::vector<float> &v, cudaStream_t s) {
  cudaMemcpyAsync(d, v.data(), 1024, cudaMemcpyHostToDevice, s);
}

void caller(float *d, cudaStream_t s) {
  std::vector<float> v(256);
  cudaHostRegister(v.data(), 1024, cudaHostRegisterDefault);
  send(d, v, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(v.data());
}
