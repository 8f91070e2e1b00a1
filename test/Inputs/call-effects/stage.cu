#include "errors.h"
#include <vector>

// Asks what reportError does before errors.cpp is summarized: given only
// strings, "nothing is known of it" and its summary do the same to this
// unit, which is not analysed again.
void stage(float *dev, int n, cudaStream_t s) {
  std::vector<float> host(n);
  CHECK(cudaMemcpyAsync(dev, host.data(), n * sizeof(float),
                        cudaMemcpyHostToDevice, s));
  CHECK(cudaStreamSynchronize(s));
}
