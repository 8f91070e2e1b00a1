/* ext_elaborated_enum_class: 'enum class E e;' naming a scoped enumeration. clang 22 makes it an error; g++ 12 warns. */
#include <cuda_runtime.h>
#include <cstdlib>
enum class Mode { fast, slow };
void run(cudaStream_t s) {
  enum class Mode mode = Mode::fast;
  (void)mode;
  float *h = (float *)malloc(64);
  float *d = 0;
  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); /* the finding */
#ifdef GENUINE_ERROR
  enum class Mode other = 1;
#endif
}
