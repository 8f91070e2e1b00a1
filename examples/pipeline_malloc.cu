// The 4-stream overlap pipeline (H2D -> kernel -> D2H per batch, one stream
// per batch), written with malloc'd host buffers. Every async copy touches
// pageable memory, so the driver stages each one through a pinned buffer
// and the copies cannot overlap the kernels: cuda-async-lint reports both.
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err));                                        \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

constexpr int NumBatches = 4;
constexpr int BatchSize = 1 << 20;

__global__ void process(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f + 1.0f;
}

int main() {
  const size_t total = size_t(NumBatches) * BatchSize;
  float *h_in = (float *)malloc(total * sizeof(float));
  float *h_out = (float *)malloc(total * sizeof(float));
  for (size_t i = 0; i < total; ++i)
    h_in[i] = float(i % 1000);

  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, total * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, total * sizeof(float)));
  cudaStream_t streams[NumBatches];
  for (int i = 0; i < NumBatches; ++i)
    CUDA_CHECK(cudaStreamCreate(&streams[i]));

  for (int i = 0; i < NumBatches; ++i) {
    size_t offset = size_t(i) * BatchSize;
    size_t bytes = BatchSize * sizeof(float);
    CUDA_CHECK(cudaMemcpyAsync(d_in + offset, h_in + offset, bytes,
                               cudaMemcpyHostToDevice, streams[i]));
    process<<<BatchSize / 256, 256, 0, streams[i]>>>(d_in + offset,
                                                     d_out + offset, BatchSize);
    CUDA_CHECK(cudaMemcpyAsync(h_out + offset, d_out + offset, bytes,
                               cudaMemcpyDeviceToHost, streams[i]));
  }
  for (int i = 0; i < NumBatches; ++i) {
    CUDA_CHECK(cudaStreamSynchronize(streams[i]));
    CUDA_CHECK(cudaStreamDestroy(streams[i]));
  }
  printf("out[42] = %f\n", h_out[42]);

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  free(h_in);
  free(h_out);
  return 0;
}
