// A program for the recorded GPU proof (scripts/gpu-trace.sh): one host
// thread per GPU (two threads on one GPU where there is only one), each
// running its own pipeline on its own stream and waiting for it before it
// reads; then thread 0 downloads on its device's legacy default stream
// while thread 1 waits for its own device, and thread 0 reads too early;
// then a copy on thread 0's per-thread default stream while thread 1 waits
// for its own per-thread stream. Expected under cuda-async-trace --races:
// two races (the lines marked RACE); none in the pipelines.
#include <cstdio>
#include <thread>

__global__ void busy(float *X, int N, int Rounds) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    for (int R = 0; R < Rounds; ++R)
      X[I] = X[I] * 0.999f + 1.0f;
}

const int N = 1 << 22;

/// Its own stream: upload, kernel, download, wait, read; eight times.
static void pipeline(int Device) {
  cudaSetDevice(Device);
  cudaStream_t Stream;
  cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking);
  float *Host, *DX;
  cudaMallocHost(&Host, N * sizeof(float));
  cudaMalloc(&DX, N * sizeof(float));
  volatile float Sum = 0;
  for (int I = 0; I < 8; ++I) {
    Host[0] = static_cast<float>(I);
    cudaMemcpyAsync(DX, Host, N * sizeof(float), cudaMemcpyHostToDevice,
                    Stream);
    busy<<<N / 256, 256, 0, Stream>>>(DX, N, 100);
    cudaMemcpyAsync(Host, DX, N * sizeof(float), cudaMemcpyDeviceToHost,
                    Stream);
    cudaStreamSynchronize(Stream);
    Sum = Sum + Host[N - 1];
  }
  cudaFree(DX);
  cudaFreeHost(Host);
  cudaStreamDestroy(Stream);
}

int main() {
  int Devices = 0;
  cudaGetDeviceCount(&Devices);
  int Other = Devices > 1 ? 1 : 0;
  std::printf("devices %d\n", Devices);
  {
    std::thread T0(pipeline, 0), T1(pipeline, Other);
    T0.join();
    T1.join();
  }
  float *Host, *DX;
  cudaSetDevice(0);
  cudaMallocHost(&Host, N * sizeof(float));
  cudaMalloc(&DX, N * sizeof(float));
  volatile float Sink;
  if (Other) {
    // Device 0's legacy stream; device 1's wait covers its own device.
    busy<<<N / 256, 256>>>(DX, N, 3000);
    cudaMemcpyAsync(Host, DX, N * sizeof(float), cudaMemcpyDeviceToHost, 0);
    std::thread([] {
      cudaSetDevice(1);
      cudaDeviceSynchronize();
    }).join();
    Sink = Host[10]; // RACE: device 0 was not waited for
    cudaDeviceSynchronize();
  }
  // Each thread's per-thread default stream is its own.
  busy<<<N / 256, 256, 0, cudaStreamPerThread>>>(DX, N, 3000);
  cudaMemcpyAsync(Host, DX, N * sizeof(float), cudaMemcpyDeviceToHost,
                  cudaStreamPerThread);
  std::thread([] { cudaStreamSynchronize(cudaStreamPerThread); }).join();
  Sink = Host[20]; // RACE: this thread's stream was not waited for
  cudaStreamSynchronize(cudaStreamPerThread);
  Sink = Host[30];
  std::printf("done %d\n", static_cast<int>(Sink));
  cudaFree(DX);
  cudaFreeHost(Host);
  return 0;
}
