//===- ReferencePipeline.cu - B batches of H2D -> kernel -> D2H -----------===//

#include "ReferencePipeline.h"

#include "CudaCheck.h"

#include <cmath>
#include <limits>

namespace cuda_async_verify {

namespace {

/// Grid-stride; each element runs a dependent multiply-add chain of
/// Intensity steps, bounded so it never overflows. The chain only feeds an
/// impossible branch, which the compiler cannot prove impossible, so it is
/// computed but leaves out = 2 * in + 1 exact.
__global__ void processBatch(const float *In, float *Out, std::size_t N,
                             unsigned Intensity) {
  std::size_t Stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t I =
           blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       I < N; I += Stride) {
    float X = In[I];
    float Chain = X;
    for (unsigned Step = 0; Step < Intensity; ++Step)
      Chain = fmaf(Chain, 0.9999f, 0.0001f);
    Out[I] = 2.0f * X + 1.0f + (Chain > 1e30f ? 1.0f : 0.0f);
  }
}

} // namespace

DeviceSide::DeviceSide(const PipelineShape &Shape) : Shape(Shape) {
  int Device = 0, Processors = 0;
  check(cudaGetDevice(&Device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&Processors, cudaDevAttrMultiProcessorCount,
                               Device),
        "cudaDeviceGetAttribute");
  // 8 blocks of 256 threads fill a multiprocessor, so kernels of different
  // streams run one after another, as one engine.
  MaxBlocks = static_cast<std::size_t>(Processors) * 8;
  check(cudaMalloc(&In, Shape.totalBytes()), "cudaMalloc (device input)");
  check(cudaMalloc(&Out, Shape.totalBytes()), "cudaMalloc (device output)");
  Streams.resize(Shape.Streams);
  for (cudaStream_t &S : Streams)
    check(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
}

DeviceSide::~DeviceSide() {
  for (cudaStream_t S : Streams)
    cudaStreamDestroy(S);
  cudaFree(In);
  cudaFree(Out);
}

float *DeviceSide::input(unsigned Batch) const {
  return In + Batch * Shape.BatchElements;
}

float *DeviceSide::output(unsigned Batch) const {
  return Out + Batch * Shape.BatchElements;
}

void DeviceSide::synchronizeStreams() const {
  for (cudaStream_t S : Streams)
    check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
}

void DeviceSide::launchProcess(unsigned Batch, unsigned Intensity,
                               cudaStream_t Stream) const {
  constexpr unsigned Threads = 256;
  std::size_t Blocks = std::min<std::size_t>(
      (Shape.BatchElements + Threads - 1) / Threads, MaxBlocks);
  processBatch<<<static_cast<unsigned>(Blocks), Threads, 0, Stream>>>(
      input(Batch), output(Batch), Shape.BatchElements, Intensity);
  checkLaunch("processBatch launch");
}

void issueBatch(const PipelineShape &Shape, const DeviceSide &Device,
                unsigned Batch, const float *HostIn, float *HostOut,
                cudaStream_t Stream) {
  check(cudaMemcpyAsync(Device.input(Batch), HostIn, Shape.batchBytes(),
                        cudaMemcpyHostToDevice, Stream),
        "cudaMemcpyAsync (H2D)");
  Device.launchProcess(Batch, Shape.Intensity, Stream);
  check(cudaMemcpyAsync(HostOut, Device.output(Batch), Shape.batchBytes(),
                        cudaMemcpyDeviceToHost, Stream),
        "cudaMemcpyAsync (D2H)");
}

void fillBatch(float *Host, std::size_t Elements, unsigned Batch) {
  for (std::size_t I = 0; I < Elements; ++I)
    Host[I] = static_cast<float>((I * 7 + Batch * 7919 + 1) % 1000003);
}

void poison(float *Host, std::size_t Elements) {
  for (std::size_t I = 0; I < Elements; ++I)
    Host[I] = std::numeric_limits<float>::quiet_NaN();
}

std::uint64_t countWrong(const float *In, const float *Out,
                         std::size_t Elements) {
  std::uint64_t Wrong = 0;
  for (std::size_t I = 0; I < Elements; ++I)
    Wrong += !(Out[I] == 2.0f * In[I] + 1.0f);
  return Wrong;
}

} // namespace cuda_async_verify
