//===- PipelineModel.h - Serial and ideal pipelined time --------*- C++ -*-===//
//
// The reference pipeline issues B batches of H2D -> kernel -> D2H round-robin
// over S streams. With nothing overlapping it takes B * (h + k + d); pipelined
// perfectly it is limited only by stream order and by each engine running one
// operation at a time. For equal stages and S >= 3 that is (B + 2) stages:
// background document 002's 4 batches take 12 units serially and 6 pipelined.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H
#define CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H

#include "Timeline.h"

namespace cuda_async_verify {

/// Each stage of one batch, timed alone, in milliseconds.
struct StageTimes {
  double HostToDeviceMs = 0;
  double KernelMs = 0;
  double DeviceToHostMs = 0;

  double sumMs() const { return HostToDeviceMs + KernelMs + DeviceToHostMs; }
  double longestMs() const;
};

/// B batches one after another, nothing overlapping.
double serialTimeMs(const StageTimes &Stages, unsigned Batches);

/// The schedule a perfect GPU would run: batch i on stream i % Streams, each
/// operation starting as soon as its engine is free, the previous stage of
/// its batch is done and the previous operation of its stream is done.
Timeline idealSchedule(const StageTimes &Stages, unsigned Batches,
                       unsigned Streams);

/// The length of idealSchedule().
double idealTimeMs(const StageTimes &Stages, unsigned Batches,
                   unsigned Streams);

/// (serial - measured) / (serial - ideal): 1 when a run overlaps as well as
/// the ideal schedule, 0 when it overlaps nothing, below 0 when it is slower
/// than serial. NaN when serial and ideal are equal (nothing can overlap).
double overlapEfficiency(double SerialMs, double IdealMs, double MeasuredMs);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H
