// One finding: a D2H copy into malloc'd memory.
#include <cstdlib>

void download(float *d, cudaStream_t stream) {
  float *h = (float *)malloc(1024);
  cudaMemcpyAsync(h, d, 1024, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  free(h);
}
