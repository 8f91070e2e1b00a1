/* err_function_template_partial_spec: a primary function template defined as 'f<T>'. clang 22 makes it an error; nvcc 13 accepts it. */
#include <cuda_runtime.h>
#include <cstdlib>
template <typename T> void upload(T *d, T *h, cudaStream_t s);
template <typename T> void upload<T>(T *d, T *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);
}
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  upload<undeclared_type>(0, 0, s);
#endif
}
