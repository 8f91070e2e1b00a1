//===- ReferencePipeline.h - B batches of H2D -> kernel -> D2H --*- C++ -*-===//
//
// The pipeline of background document 002: each batch is copied to the
// device, processed by a kernel and copied back, on stream (batch % S). The
// kernel computes out = 2 * in + 1 exactly, after an arithmetic loop whose
// length (the intensity) sets the compute stage's time, so every output can
// be checked against its input.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_REFERENCEPIPELINE_H
#define CUDA_ASYNC_VERIFY_GPU_REFERENCEPIPELINE_H

#include "Results.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuda_async_verify {

struct PipelineShape {
  std::size_t BatchElements = 0;
  unsigned Batches = 0;
  unsigned Streams = 0;
  unsigned Intensity = 1;

  std::size_t batchBytes() const { return BatchElements * sizeof(float); }
  std::size_t totalElements() const { return BatchElements * Batches; }
  std::size_t totalBytes() const { return totalElements() * sizeof(float); }
};

/// Device input and output for every batch, and the created streams.
class DeviceSide {
public:
  explicit DeviceSide(const PipelineShape &Shape);
  DeviceSide(const DeviceSide &) = delete;
  DeviceSide &operator=(const DeviceSide &) = delete;
  ~DeviceSide();

  float *input(unsigned Batch) const;
  float *output(unsigned Batch) const;
  cudaStream_t stream(unsigned Batch) const {
    return Streams[Batch % Streams.size()];
  }
  const std::vector<cudaStream_t> &streams() const { return Streams; }
  void synchronizeStreams() const;

  /// Enqueues the kernel for batch Batch (its input to its output) on Stream.
  void launchProcess(unsigned Batch, unsigned Intensity,
                     cudaStream_t Stream) const;

private:
  PipelineShape Shape;
  /// Enough blocks to fill every multiprocessor, read once from the device.
  std::size_t MaxBlocks = 0;
  float *In = nullptr;
  float *Out = nullptr;
  std::vector<cudaStream_t> Streams;
};

/// Enqueues one batch's three stages on Stream. Host pointers point at the
/// batch's own slice.
void issueBatch(const PipelineShape &Shape, const DeviceSide &Device,
                unsigned Batch, const float *HostIn, float *HostOut,
                cudaStream_t Stream);

/// Input values of a batch: whole numbers below 2^20, so 2 * in + 1 is exact
/// in float, and different for every batch at most positions.
void fillBatch(float *Host, std::size_t Elements, unsigned Batch);

/// Fills Host with a value no output ever has (NaN).
void poison(float *Host, std::size_t Elements);

/// Counts outputs that are not 2 * in + 1.
std::uint64_t countWrong(const float *In, const float *Out,
                         std::size_t Elements);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_REFERENCEPIPELINE_H
