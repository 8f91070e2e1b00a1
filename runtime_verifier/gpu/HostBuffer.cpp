//===- HostBuffer.cpp - Host memory of each kind the checks know ----------===//

#include "HostBuffer.h"

#include "CudaCheck.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace cuda_async_verify {

const char *allocationName(HostAllocation A) {
  switch (A) {
  case HostAllocation::Malloc:
    return "malloc";
  case HostAllocation::CudaMallocHost:
    return "cudaMallocHost";
  case HostAllocation::CudaHostRegister:
    return "cudaHostRegister";
  }
  return "?";
}

HostBuffer::HostBuffer(std::size_t Bytes, HostAllocation How)
    : Bytes(Bytes), How(How) {
  void *P = nullptr;
  if (How == HostAllocation::CudaMallocHost) {
    check(cudaMallocHost(&P, Bytes), "cudaMallocHost");
  } else {
    P = std::malloc(Bytes);
    if (!P)
      throw std::bad_alloc();
    // Touch every page now, so first-touch faults stay out of the timings.
    std::memset(P, 0, Bytes);
    if (How == HostAllocation::CudaHostRegister) {
      cudaError_t Code = cudaHostRegister(P, Bytes, cudaHostRegisterDefault);
      if (Code != cudaSuccess) {
        std::free(P);
        throw CudaError("cudaHostRegister", Code);
      }
    }
  }
  Data = static_cast<float *>(P);
}

HostBuffer::HostBuffer(HostBuffer &&Other) noexcept {
  *this = std::move(Other);
}

HostBuffer &HostBuffer::operator=(HostBuffer &&Other) noexcept {
  if (this != &Other) {
    release();
    Data = std::exchange(Other.Data, nullptr);
    Bytes = std::exchange(Other.Bytes, 0);
    How = Other.How;
  }
  return *this;
}

HostBuffer::~HostBuffer() { release(); }

void HostBuffer::release() noexcept {
  if (!Data)
    return;
  // The matching release for each allocation (cuda-async-dealloc-mismatch,
  // cuda-async-host-register-leak).
  switch (How) {
  case HostAllocation::CudaMallocHost:
    cudaFreeHost(Data);
    break;
  case HostAllocation::CudaHostRegister:
    cudaHostUnregister(Data);
    std::free(Data);
    break;
  case HostAllocation::Malloc:
    std::free(Data);
    break;
  }
  Data = nullptr;
}

} // namespace cuda_async_verify
