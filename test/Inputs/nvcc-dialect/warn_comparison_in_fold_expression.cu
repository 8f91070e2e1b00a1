/* warn_comparison_in_fold_expression: a comparison fold '(t < ...)'. clang 22 makes it an error; nvcc 13 accepts. */
#include <cuda_runtime.h>
#include <cstdlib>
template <class... T> bool ordered(T... t) { return (t < ...); }
void run(cudaStream_t s) {
  (void)ordered(1, 2, 3);
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  (void)ordered(undeclared_variable);
#endif
}
