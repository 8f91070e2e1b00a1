#include <cstddef>
#include <cuda_runtime.h>

// From a pool no unit defines: what it returns is unknown.
void *poolAlloc(size_t Bytes);

struct Staging {
  float *data;
};
