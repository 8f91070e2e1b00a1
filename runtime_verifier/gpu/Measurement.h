//===- Measurement.h - Timing variants of the reference pipeline *- C++ -*-===//
//
// How every number is taken: untimed warm-up runs, then repeated runs timed
// on the host clock from the first call issued to the final synchronization
// (so host-side stalls such as a staged pageable copy or a cudaMallocHost in
// the loop count), then one verified run, traced by CUPTI when available
// (after one traced run whose records are dropped: CUPTI's own set-up slows
// the first launches it sees).
// Stage times are taken alone with CUDA events.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_MEASUREMENT_H
#define CUDA_ASYNC_VERIFY_GPU_MEASUREMENT_H

#include "ActivityTrace.h"
#include "HostBuffer.h"
#include "ReferencePipeline.h"
#include "Results.h"

#include <functional>
#include <map>
#include <string>

namespace cuda_async_verify {

struct MeasureSettings {
  unsigned Warmup = 2;
  unsigned Repeats = 10;
  /// Null when there is no trace.
  ActivityTrace *Trace = nullptr;
};

/// One way of writing the pipeline in user code.
struct PipelineVariant {
  std::string Name;
  Role Kind = Role::Buggy;
  std::string Description;
  /// The host memory its copies use; selects its stage times.
  HostAllocation Memory = HostAllocation::CudaMallocHost;
  /// Issues the whole pipeline; returns once the results are on the host.
  std::function<void()> Run;
  /// Before the verified run (poisons the outputs).
  std::function<void()> Prepare;
  /// After the verified run.
  std::function<Correctness()> Verify;
};

/// Milliseconds Work takes on the host clock.
double hostMs(const std::function<void()> &Work);

/// Milliseconds the GPU spends on the work Enqueue puts on Stream, between
/// two events.
double eventMs(cudaStream_t Stream, const std::function<void()> &Enqueue);

/// Each stage of one batch, alone, median of Repeats, per host memory kind.
class StageTimer {
public:
  StageTimer(const PipelineShape &Shape, const DeviceSide &Device,
             unsigned Repeats)
      : Shape(Shape), Device(Device), Repeats(Repeats) {}
  const StageTimes &timesFor(HostAllocation Memory);

private:
  const PipelineShape &Shape;
  const DeviceSide &Device;
  unsigned Repeats;
  std::map<HostAllocation, StageTimes> Cache;
};

VariantResult measure(const PipelineVariant &Variant, const StageTimes &Stages,
                      const PipelineShape &Shape,
                      const MeasureSettings &Settings);

/// Keeps the GPU busy for about Ms, so its clocks have ramped up from idle
/// before anything is timed.
void warmUpGpu(const PipelineShape &Shape, const DeviceSide &Device, double Ms);

/// The kernel intensity at which the compute stage takes TargetMs, from a
/// linear fit of two timed intensities.
unsigned calibrateIntensity(const PipelineShape &Shape,
                            const DeviceSide &Device, double TargetMs);

/// Correctness of Checked outputs of which Wrong are not 2 * in + 1.
Correctness outputCorrectness(std::uint64_t Wrong, std::uint64_t Checked);

/// Correctness of Elements outputs against their inputs.
Correctness compareOutputs(const float *In, const float *Out,
                           std::size_t Elements);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_MEASUREMENT_H
