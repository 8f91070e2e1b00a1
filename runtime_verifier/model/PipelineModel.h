//===- PipelineModel.h - Serial and ideal pipelined time --------*- C++ -*-===//
//
// The reference pipeline issues B batches of H2D -> kernel -> D2H round-robin
// over S streams. With nothing overlapping it takes B * (h + k + d); pipelined
// perfectly it is limited only by stream order, by each engine running one
// operation at a time and by how fast this machine runs the engines beside
// each other. For equal stages that keep their speed together and S >= 3
// that is (B + 2) stages: background document 002's 4 batches take 12 units
// serially and 6 pipelined.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H
#define CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H

#include "StageProfile.h"
#include "Timeline.h"

namespace cuda_async_verify {

/// B batches one after another, nothing overlapping, each stage at its
/// alone time.
double serialTimeMs(const StageTimes &Stages, unsigned Batches);

/// The schedule a perfect GPU would run: batch i on stream i % Streams, each
/// operation starting as soon as its engine is free, the previous stage of
/// its batch is done and the previous operation of its stream is done. An
/// operation advances at the speed the profile gives for the engines busy
/// at each moment (alone, or beside one or two others), so a machine whose
/// copies slow down beside each other gets a longer ideal. With a shared
/// copy engine, H2D and D2H copies take turns, the first ready first.
Timeline idealSchedule(const StageProfile &Profile, unsigned Batches,
                       unsigned Streams);

/// The length of idealSchedule().
double idealTimeMs(const StageProfile &Profile, unsigned Batches,
                   unsigned Streams);

/// (serial - measured) / (serial - ideal): 1 when a run overlaps as well as
/// the ideal schedule, 0 when it overlaps nothing, below 0 when it is slower
/// than serial. NaN when the ideal saves nothing over serial (nothing can
/// overlap, or this machine runs the stages no faster together).
double overlapEfficiency(double SerialMs, double IdealMs, double MeasuredMs);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_PIPELINEMODEL_H
