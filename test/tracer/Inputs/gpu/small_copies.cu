// What the tracer costs a program that copies a lot (scripts/gpu-trace.sh):
// COUNT async copies of BYTES each from pinned memory, host to device and
// back, round-robin over 4 streams, every stream synchronized after each
// batch of 64 copies (fewer for large copies: a batch's buffers take at
// most 1 GiB). Prints the host time per copy, the figure traced and untraced
// runs compare.
//   small_copies BYTES COUNT
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
  size_t Bytes = Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : 4096;
  long Count = Argc > 2 ? std::atol(Argv[2]) : 100000;
  const int Streams = 4;
  const long Batch = Bytes >= (1ul << 24) ? long((1ul << 30) / Bytes) : 64;
  char *Host;
  cudaMallocHost(&Host, Bytes * Batch);
  char *Device;
  cudaMalloc(&Device, Bytes * Batch);
  cudaStream_t S[Streams];
  for (cudaStream_t &Stream : S)
    cudaStreamCreate(&Stream);
  // Warm up: the first copies pay for the context.
  cudaMemcpy(Device, Host, Bytes, cudaMemcpyHostToDevice);
  auto Start = std::chrono::steady_clock::now();
  for (long I = 0; I < Count; ++I) {
    long Slot = I % Batch;
    cudaMemcpyKind Kind =
        I % 2 ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    char *Dst = Kind == cudaMemcpyHostToDevice ? Device + Slot * Bytes
                                               : Host + Slot * Bytes;
    char *Src = Kind == cudaMemcpyHostToDevice ? Host + Slot * Bytes
                                               : Device + Slot * Bytes;
    cudaMemcpyAsync(Dst, Src, Bytes, Kind, S[I % Streams]);
    if (Slot == Batch - 1)
      for (cudaStream_t &Stream : S)
        cudaStreamSynchronize(Stream);
  }
  cudaDeviceSynchronize();
  double Us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - Start)
                  .count();
  std::printf("copies %ld bytes %zu total_us %.1f per_copy_us %.3f\n", Count,
              Bytes, Us, Us / Count);
  for (cudaStream_t &Stream : S)
    cudaStreamDestroy(Stream);
  cudaFree(Device);
  cudaFreeHost(Host);
  return 0;
}
