// A frame buffer class whose constructor pins its pixels with cudaMallocHost
// and whose destructor releases them with delete[]: heap corruption, found
// today only by a crash. cuda-async-lint reports the delete[] (through the
// field's summary) and offers cudaFreeHost as the fix; the staging copy is
// registered with cudaHostRegister and freed without cudaHostUnregister.
#include <cstdio>
#include <cstdlib>

__global__ void invert(unsigned char *pixels, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pixels[i] = 255 - pixels[i];
}

class PinnedFrame {
public:
  explicit PinnedFrame(int n) : size(n) { cudaMallocHost(&pixels, n); }
  ~PinnedFrame() { delete[] pixels; }

  void process(unsigned char *d, cudaStream_t stream) {
    cudaMemcpyAsync(d, pixels, size, cudaMemcpyHostToDevice, stream);
    invert<<<(size + 255) / 256, 256, 0, stream>>>(d, size);
    cudaMemcpyAsync(pixels, d, size, cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
  }

private:
  int size;
  unsigned char *pixels;
};

int main() {
  const int n = 1920 * 1080;
  unsigned char *d;
  cudaMalloc(&d, n);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  {
    PinnedFrame frame(n);
    frame.process(d, stream);
  }

  unsigned char *staging = (unsigned char *)malloc(n);
  cudaHostRegister(staging, n, cudaHostRegisterDefault);
  cudaMemcpyAsync(staging, d, n, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  printf("staging[0] = %d\n", staging[0]);
  free(staging);

  cudaStreamDestroy(stream);
  cudaFree(d);
  return 0;
}
