/* err_function_template_spec_no_match: an explicit specialization whose execution spaces are not its primary template's (jetson-utils' cudaVector.h: a __host__ __device__ 'alpha<uchar3>' of a __device__ template). clang 22 sets the template aside ("target attributes do not match") and makes it an error; nvcc 13 accepts it. A specialization set aside for any other reason (GENUINE_ERROR: another parameter list) fails the file. */
#include <cuda_runtime.h>
#include <cstdlib>
template <typename T> inline __device__ T alpha(T v, T fallback) { return v; }
template <> inline __host__ __device__ float alpha(float v, float fallback) { return fallback; }
#ifdef GENUINE_ERROR
template <typename T> T beta(T v, T w) { return v; }
template <> float beta(float v) { return v; }
#endif
void run(cudaStream_t s) {
  float *h = (float *)malloc(64);
  h[0] = alpha(2.0f, 1.0f);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
}
