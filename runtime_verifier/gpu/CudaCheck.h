//===- CudaCheck.h - CUDA errors become exceptions --------------*- C++ -*-===//
//
// Every CUDA call of the verifier is checked: a measurement taken after a
// failed call proves nothing. main() turns the exception into exit code 3.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_CUDACHECK_H
#define CUDA_ASYNC_VERIFY_GPU_CUDACHECK_H

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cuda_async_verify {

class CudaError : public std::runtime_error {
public:
  CudaError(const std::string &What, cudaError_t Code)
      : std::runtime_error(What + " failed: " + cudaGetErrorString(Code) +
                           " (" + cudaGetErrorName(Code) + ")"),
        Code(Code) {}
  cudaError_t Code;
};

inline void check(cudaError_t Code, const char *What) {
  if (Code != cudaSuccess)
    throw CudaError(What, Code);
}

/// Checks that a kernel launch was accepted.
inline void checkLaunch(const char *What) { check(cudaGetLastError(), What); }

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_CUDACHECK_H
