//===- Measurement.h - Timing variants of the reference pipeline *- C++ -*-===//
//
// How every number is taken: untimed warm-up runs, then repeated timed runs,
// then one verified run, traced by CUPTI when available (after one traced run
// whose records are dropped: CUPTI's own set-up slows the first launches it
// sees). A run's time is its GPU span: from an event recorded as the host
// starts issuing to the last of the events recorded on every stream once it
// has issued everything. Host-side stalls (a staged pageable copy, a
// cudaMallocHost in the loop) leave the GPU idle inside that span, so they
// count; the host's wake-up after the final synchronization does not, and is
// reported separately as wall time. Stage times are taken alone with events.
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
#include <optional>
#include <string>

namespace cuda_async_verify {

struct MeasureSettings {
  unsigned Warmup = 2;
  unsigned Repeats = 10;
  /// Null when there is no trace.
  ActivityTrace *Trace = nullptr;
  /// Run only the variants of this role (--variants).
  std::optional<Role> OnlyRole;
};

/// One way of writing the pipeline in user code.
struct PipelineVariant {
  std::string Name;
  Role Kind = Role::Buggy;
  std::string Description;
  /// The host memory its copies use; selects its stage times.
  HostAllocation Memory = HostAllocation::CudaMallocHost;
  /// Issues the whole pipeline (blocking wherever the variant blocks).
  std::function<void()> Issue;
  /// Waits for the results and releases what Issue acquired.
  std::function<void()> Finish;
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

/// Times each stage of one batch, per host memory kind: alone, and for
/// pinned memory also beside the other engines, as a pipeline runs them.
class StageTimer {
public:
  StageTimer(const PipelineShape &Shape, const DeviceSide &Device);
  StageTimer(const StageTimer &) = delete;
  StageTimer &operator=(const StageTimer &) = delete;
  ~StageTimer();
  /// One timing of each stage alone and (pinned memory) of each set of
  /// engines together. A pageable copy holds the host until it is done, so
  /// its engines cannot be kept busy together from one thread: pageable
  /// memory is timed alone only.
  StageProfile sample(HostAllocation Memory);
  /// The median of Repeats samples of the stages alone, after one untimed
  /// round.
  StageTimes median(HostAllocation Memory, unsigned Repeats);

private:
  StageTimes alone(HostAllocation Memory);
  /// Enqueues one batch's operation of engine \p E on \p S, between the
  /// host buffers of \p Memory and batch \p Batch's device buffers.
  void enqueue(Engine E, HostAllocation Memory, unsigned Batch, cudaStream_t S);
  /// Each engine of Busy runs Rounds operations back to back on its own
  /// stream, all at once; an engine's time is the median of its operations
  /// that ran wholly while every engine of the set was running.
  StageTimes together(HostAllocation Memory, EngineSet Busy);
  const std::pair<HostBuffer, HostBuffer> &buffers(HostAllocation Memory);

  static constexpr unsigned Rounds = 5;
  const PipelineShape &Shape;
  const DeviceSide &Device;
  bool SharedCopyEngine = false;
  std::map<HostAllocation, std::pair<HostBuffer, HostBuffer>> Buffers;
  cudaStream_t Streams[3] = {};
  /// Before and after each operation: [engine][round][0 start, 1 end].
  cudaEvent_t Marks[3][Rounds][2] = {};
  cudaEvent_t Origin = nullptr;
};

/// Times the variants of one comparison together: each repeat samples the
/// stage times of every memory kind in use and then runs every variant once,
/// so a slow spell of a shared machine touches all of them alike.
std::vector<VariantResult>
measureTogether(const std::vector<PipelineVariant> &Variants,
                StageTimer &Stages, const PipelineShape &Shape,
                const DeviceSide &Device, const MeasureSettings &Settings);

/// Keeps the GPU busy for about Ms, so its clocks have ramped up from idle
/// before anything is timed.
void warmUpGpu(const DeviceSide &Device, double Ms);

/// The kernel intensity at which the compute stage takes TargetMs, from a
/// linear fit of two timed intensities.
unsigned calibrateIntensity(const DeviceSide &Device, double TargetMs);

/// Correctness of Checked outputs of which Wrong are not 2 * in + 1.
Correctness outputCorrectness(std::uint64_t Wrong, std::uint64_t Checked);

/// Correctness of Elements outputs against their inputs.
Correctness compareOutputs(const float *In, const float *Out,
                           std::size_t Elements);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_MEASUREMENT_H
