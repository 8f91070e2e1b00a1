// A system header that redeclares a function __host__ __device__ after an
// earlier declaration made it __device__, as CCCL's assert.h does under
// __NVCC__ and NDEBUG with clang's CUDA wrapper's __assert_fail: nvcc
// merges the declarations.
#pragma once
extern "C" __device__ void vendor_fail(const char *what);
extern "C" __host__ __device__ void vendor_fail(const char *what);
