//===- Bench.h - What every check's experiment shares -----------*- C++ -*-===//
//
// The pipeline shape, the device buffers and streams, the stage-time cache
// and the measurement settings, and the experiments themselves: one function
// per cuda-async-lint check, each running its buggy and fixed variants, and
// one per reproduced background document.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_GPU_BENCH_H
#define CUDA_ASYNC_VERIFY_GPU_BENCH_H

#include "Measurement.h"
#include "ReferencePipeline.h"
#include "Results.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cuda_async_verify {

/// The reference pipeline's host input and output.
struct PipelineIO {
  HostBuffer In, Out;
};

struct Bench {
  PipelineShape Shape;
  DeviceSide &Device;
  StageTimer &Stages;
  MeasureSettings Settings;
  /// The device ordinal, for child processes.
  int DeviceOrdinal = 0;
  /// The pipelines' host buffers by kind of memory, kept while one check is
  /// measured (again, on a busy machine): measuring again must not pin
  /// again, or the verifier itself pins in a loop (as its tracer reports).
  std::map<HostAllocation, std::shared_ptr<PipelineIO>> IOs;
};

/// Input and output of a whole run in the given memory, inputs filled.
std::shared_ptr<PipelineIO> makePipelineIO(const PipelineShape &Shape,
                                           HostAllocation Memory);

/// B's buffers of \p Memory for the check being measured: made (by
/// makePipelineIO) on first use, the same ones until the check is done.
std::shared_ptr<PipelineIO> pipelineIO(Bench &B, HostAllocation Memory);

/// A variant that runs Issue then Finish over IO, whose verified run starts
/// from poisoned outputs and whose outputs are checked against IO's inputs.
PipelineVariant pipelineVariant(const PipelineShape &Shape, std::string Name,
                                Role Kind, std::string Description,
                                HostAllocation Memory,
                                std::shared_ptr<PipelineIO> IO,
                                std::function<void()> Issue,
                                std::function<void()> Finish);

// Overlap checks (OverlapChecks.cu).
CheckResult verifyPageableCopy(Bench &B);
CheckResult verifyDefaultStream(Bench &B);
CheckResult verifySyncInLoop(Bench &B);
CheckResult verifyPinnedAllocInLoop(Bench &B);

// Correctness checks (UnsynchronizedAccess.cu, DeallocMismatch.cpp).
std::vector<CheckResult> verifyUnsynchronizedAccess(Bench &B);
CheckResult verifyDeallocMismatch(Bench &B);
/// The body of one dealloc-mismatch child process; returns its exit code.
int runReleaseCase(const std::string &Case, int DeviceOrdinal);

// Background documents (Reproductions.cu).
Reproduction reproducePinnedVsPageable(Bench &B);
Reproduction reproduceThreeStagePipeline(Bench &B);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_BENCH_H
