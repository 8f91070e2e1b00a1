/* err_deduction_guide_target_attr: a __device__ deduction guide. clang 22 makes it an error; nvcc 13 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
template <class T> struct Wrap { __host__ __device__ Wrap(T) {} };
__device__ Wrap(int) -> Wrap<int>;
void run(cudaStream_t s) {
  Wrap<int> w(1);
  (void)w;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  Wrap<undeclared_type> other(1);
#endif
}
