#include "errors.h"
#include <cstdlib>

// The largest unit, parsed first: it asks what reportError and
// waitForDevice do before errors.cpp is summarized.
void pipeline(float *dev, int n, cudaStream_t s) {
  const size_t bytes = n * sizeof(float);
  float *pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, bytes));
  float *pageable = static_cast<float *>(std::malloc(bytes));
  CHECK(cudaMemcpyAsync(dev, pageable, bytes, cudaMemcpyHostToDevice, s));
  CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, s));
  CHECK(cudaStreamSynchronize(s));

  // The device is synchronized before the result is read: waitForDevice
  // calls cudaDeviceSynchronize, which only its own unit's summary says.
  CHECK(cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, s));
  waitForDevice("result");
  float first = pinned[0];
  (void)first;

  // Nothing waits for this copy before the read: a race, whatever the
  // error handler's summary says.
  CHECK(cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, s));
  float second = pinned[1];
  (void)second;
  CHECK(cudaStreamSynchronize(s));
  cudaFreeHost(pinned);
  std::free(pageable);
}
