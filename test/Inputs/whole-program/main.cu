#include "buffers.h"
#include <cstdlib>

int main() {
  const int N = 1 << 20;
  const std::size_t Bytes = N * sizeof(float);
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *dev = nullptr;
  cudaMalloc(&dev, Bytes);

  float *matrix = loadMatrix(N);
  cudaMemcpyAsync(dev, matrix, Bytes, cudaMemcpyHostToDevice, s);

  float *image = nullptr;
  readImage(&image, N);
  cudaMemcpyAsync(dev, image, Bytes, cudaMemcpyHostToDevice, s);

  float *staging = allocPinned(N);
  cudaMemcpyAsync(dev, staging, Bytes, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  delete[] staging;

  float *raw = static_cast<float *>(std::malloc(Bytes));
  upload(raw, dev, Bytes, s);
  uploadMixed(raw, dev, Bytes, s);
  uploadViaPointer(raw, dev, Bytes, s);
  exportedUpload(raw, dev, Bytes, s);
  uploadFlag(raw, dev, Bytes, s, false);
  void (*uploader)(const float *, float *, std::size_t, cudaStream_t) =
      uploadViaPointer;
  (void)uploader;

  float *pinned = nullptr;
  cudaMallocHost(&pinned, Bytes);
  uploadMixed(pinned, dev, Bytes, s);
  uploadPinned(pinned, dev, Bytes, s);
  uploadFlag(pinned, dev, Bytes, s, true);
  cudaStreamSynchronize(s);
  freeHost(pinned);

  float *registered = static_cast<float *>(std::malloc(Bytes));
  pin(registered, Bytes);
  cudaMemcpyAsync(dev, registered, Bytes, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  std::free(registered);

  Reservoir r;
  r.allocate(N);
  r.release();

  double *values = nullptr;
  int *rows = nullptr;
  loadSparse(&values, &rows, N);
  cudaMemcpyAsync(dev, values, Bytes, cudaMemcpyHostToDevice, s);
  return 0;
}
