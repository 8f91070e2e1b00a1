//===- HostBuffer.h - Host memory of each kind the checks know --*- C++ -*-===//
//
// The pageable-copy check's three cases: malloc'd (pageable) memory, memory
// from cudaMallocHost, and malloc'd memory pinned with cudaHostRegister. Each
// is released with its matching function.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_HOSTBUFFER_H
#define CUDA_ASYNC_VERIFY_GPU_HOSTBUFFER_H

#include <cstddef>

namespace cuda_async_verify {

enum class HostAllocation { Malloc, CudaMallocHost, CudaHostRegister };

const char *allocationName(HostAllocation A);

class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(std::size_t Bytes, HostAllocation How);
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  HostBuffer(HostBuffer &&Other) noexcept;
  HostBuffer &operator=(HostBuffer &&Other) noexcept;
  ~HostBuffer();

  float *data() const { return Data; }
  std::size_t bytes() const { return Bytes; }
  HostAllocation allocation() const { return How; }

private:
  void release() noexcept;

  float *Data = nullptr;
  std::size_t Bytes = 0;
  HostAllocation How = HostAllocation::Malloc;
};

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_HOSTBUFFER_H
