// Kernels launched with <<<...>>>, for test/tracer/launch-lines.test: the
// trace must name each launch's line, not the kernel's declaration (nvcc's
// host function for a kernel carries a #line of the declaration).
#include <cuda_runtime.h>

__global__ void sum(float *a, int n) { a[threadIdx.x] += n; }

template <typename T> __global__ void scale(T *a, T f) { a[threadIdx.x] *= f; }

namespace ns {
__global__ void step(float *a) { a[0] = 1; }
} // namespace ns

void stepOn(float *d, cudaStream_t s) {
  ns::step<<<1, 1, 0, s>>>(d); // LAUNCH step
}

int main() {
  float *d = nullptr;
  cudaStream_t s = nullptr;
  sum<<<1, 32>>>(d, 2);                   // LAUNCH sum
  scale<float><<<1, 32, 0, s>>>(d, 2.0f); // LAUNCH scale
  stepOn(d, s);
  return 0;
}
