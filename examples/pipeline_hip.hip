// The 4-stream overlap pipeline for AMD GPUs, written in HIP with
// hipHostMalloc'd buffers, and two bugs a port from CUDA brought along: the
// staging buffer of the final results is malloc'd (hipMemcpyAsync into it is
// staged and synchronous), and the input buffer is released with free()
// instead of hipHostFree. cuda-async-lint reports both, naming HIP's calls.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(call)                                                        \
  do {                                                                         \
    hipError_t err = (call);                                                   \
    if (err != hipSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              hipGetErrorString(err));                                         \
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
  float *h_in;
  HIP_CHECK(hipHostMalloc(&h_in, total * sizeof(float), hipHostMallocDefault));
  float *h_out = (float *)malloc(total * sizeof(float));
  for (size_t i = 0; i < total; ++i)
    h_in[i] = float(i % 1000);

  float *d_in, *d_out;
  HIP_CHECK(hipMalloc(&d_in, total * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, total * sizeof(float)));
  hipStream_t streams[NumBatches];
  for (int i = 0; i < NumBatches; ++i)
    HIP_CHECK(hipStreamCreate(&streams[i]));

  for (int i = 0; i < NumBatches; ++i) {
    size_t offset = size_t(i) * BatchSize;
    size_t bytes = BatchSize * sizeof(float);
    HIP_CHECK(hipMemcpyAsync(d_in + offset, h_in + offset, bytes,
                             hipMemcpyHostToDevice, streams[i]));
    hipLaunchKernelGGL(process, dim3(BatchSize / 256), dim3(256), 0,
                       streams[i], d_in + offset, d_out + offset, BatchSize);
    HIP_CHECK(hipMemcpyAsync(h_out + offset, d_out + offset, bytes,
                             hipMemcpyDeviceToHost, streams[i]));
  }
  for (int i = 0; i < NumBatches; ++i) {
    HIP_CHECK(hipStreamSynchronize(streams[i]));
    HIP_CHECK(hipStreamDestroy(streams[i]));
  }
  printf("out[42] = %f\n", h_out[42]);

  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
  free(h_in);
  free(h_out);
  return 0;
}
