/* warn_invalid_specialization: a specialization of a template marked [[clang::no_specializations]]. clang 22 makes it an error; g++ 12 ignores the attribute. */
#include <cuda_runtime.h>
#include <cstdlib>
template <class T> struct [[clang::no_specializations]] Traits {};
template <> struct Traits<int> { static const int size = 4; };
void run(cudaStream_t s) {
  (void)Traits<int>::size;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  (void)Traits<int, int>::size;
#endif
}
