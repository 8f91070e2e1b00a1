// Declarations the program's translation units share.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

float *loadMatrix(int n);              // loader.cpp: malloc
void readImage(float **out, int n);    // loader.cpp: new[] through *out
void freeHost(float *p);               // loader.cpp: delete[]
float *allocPinned(int n);             // pinned.cu: cudaMallocHost
void pin(float *p, std::size_t bytes); // pinned.cu: cudaHostRegister

// copies.cu
void upload(const float *host, float *dev, std::size_t bytes, cudaStream_t s);
void uploadMixed(const float *host, float *dev, std::size_t bytes,
                 cudaStream_t s);
void uploadPinned(const float *host, float *dev, std::size_t bytes,
                  cudaStream_t s);
void uploadViaPointer(const float *host, float *dev, std::size_t bytes,
                      cudaStream_t s);
__attribute__((visibility("default"))) void
exportedUpload(const float *host, float *dev, std::size_t bytes,
               cudaStream_t s);
void uploadFlag(const float *host, float *dev, std::size_t bytes,
                cudaStream_t s, bool staged);

// A type whose pointer is pinned in one file and released in another.
struct Reservoir {
  float *cells = nullptr;
  void allocate(int n); // pinned.cu: cudaMallocHost
  void release();       // loader.cpp: delete[]
};

// A template loader defined in loader.cpp, explicitly instantiated there.
template <typename T> void loadSparse(T **values, int **rows, int n);
