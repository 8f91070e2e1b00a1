//===- Reproductions.cu - The background documents, on real hardware ------===//
//
// Document 000 compares pageable and pinned transfers (~6 vs ~12 GB/s, 2x,
// "cudaMemcpyAsync with malloc'd memory falls back to synchronous").
// Document 002 pipelines 4 batches of 3 equal stages over streams: 12 time
// units serially, 6 pipelined, 2.00x.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "CudaCheck.h"
#include "Format.h"

#include <chrono>
#include <cstdio>

namespace cuda_async_verify {

namespace {

struct CopyTiming {
  double Ms = 0;
  /// Share of the copy's time the host spent inside cudaMemcpyAsync.
  double HostBlocked = 0;
};

/// One direction's copy of Bytes between Host and Device, timed on the GPU
/// with events while the host clock times the cudaMemcpyAsync call itself.
CopyTiming timeCopy(void *Device, void *Host, std::size_t Bytes,
                    cudaMemcpyKind Direction, cudaStream_t Stream,
                    unsigned Repeats) {
  std::vector<double> Ms, Blocked;
  for (unsigned I = 0; I <= Repeats; ++I) {
    double CallMs = 0;
    double CopyMs = eventMs(Stream, [&] {
      CallMs = hostMs([&] {
        bool ToDevice = Direction == cudaMemcpyHostToDevice;
        check(cudaMemcpyAsync(ToDevice ? Device : Host,
                              ToDevice ? Host : Device, Bytes, Direction,
                              Stream),
              "cudaMemcpyAsync");
      });
    });
    if (I == 0)
      continue; // warm-up
    Ms.push_back(CopyMs);
    Blocked.push_back(CopyMs > 0 ? std::min(1.0, CallMs / CopyMs) : 0);
  }
  return {summarize(Ms).Median, summarize(Blocked).Median};
}

double gbPerSecond(std::size_t Bytes, double Ms) { return Bytes / Ms / 1e6; }

} // namespace

Reproduction reproducePinnedVsPageable(Bench &B) {
  std::size_t Bytes = 4 * B.Shape.batchBytes();
  HostBuffer Pageable(Bytes, HostAllocation::Malloc);
  HostBuffer Pinned(Bytes, HostAllocation::CudaMallocHost);
  void *Device = nullptr;
  check(cudaMalloc(&Device, Bytes), "cudaMalloc");
  cudaStream_t S = B.Device.stream(0);
  unsigned Repeats = B.Settings.Repeats;
  CopyTiming PageableUp = timeCopy(Device, Pageable.data(), Bytes,
                                   cudaMemcpyHostToDevice, S, Repeats);
  CopyTiming PinnedUp = timeCopy(Device, Pinned.data(), Bytes,
                                 cudaMemcpyHostToDevice, S, Repeats);
  CopyTiming PageableDown = timeCopy(Device, Pageable.data(), Bytes,
                                     cudaMemcpyDeviceToHost, S, Repeats);
  CopyTiming PinnedDown = timeCopy(Device, Pinned.data(), Bytes,
                                   cudaMemcpyDeviceToHost, S, Repeats);
  cudaFree(Device);

  Reproduction R;
  R.Seed = "000";
  R.Title = "pinned vs pageable transfers of " +
            format("%.0f MiB", Bytes / 1048576.0);
  double UpGain = PageableUp.Ms / PinnedUp.Ms;
  double DownGain = PageableDown.Ms / PinnedDown.Ms;
  R.add("H2D bandwidth, pageable (malloc)", "GB/s", 6.0,
        gbPerSecond(Bytes, PageableUp.Ms));
  R.add("H2D bandwidth, pinned (cudaMallocHost)", "GB/s", 12.0,
        gbPerSecond(Bytes, PinnedUp.Ms));
  R.add("H2D speedup, pinned over pageable", "x", 2.0, UpGain);
  R.add("D2H bandwidth, pageable (malloc)", "GB/s", 6.0,
        gbPerSecond(Bytes, PageableDown.Ms));
  R.add("D2H bandwidth, pinned (cudaMallocHost)", "GB/s", 12.0,
        gbPerSecond(Bytes, PinnedDown.Ms));
  R.add("D2H speedup, pinned over pageable", "x", 2.0, DownGain);
  R.add("host blocked in cudaMemcpyAsync H2D, pageable", "%", 100.0,
        100 * PageableUp.HostBlocked);
  R.add("host blocked in cudaMemcpyAsync H2D, pinned", "%", 0.0,
        100 * PinnedUp.HostBlocked);
  R.add("host blocked in cudaMemcpyAsync D2H, pageable", "%", 100.0,
        100 * PageableDown.HostBlocked);
  R.add("host blocked in cudaMemcpyAsync D2H, pinned", "%", 0.0,
        100 * PinnedDown.HostBlocked);
  R.Conclusion =
      format("pinned copies run %.2fx (H2D) and %.2fx (D2H) faster than "
             "pageable ones (document: 2.00x); a pageable cudaMemcpyAsync "
             "holds the host for %.0f%% (H2D) and %.0f%% (D2H) of its copy",
             UpGain, DownGain, 100 * PageableUp.HostBlocked,
             100 * PageableDown.HostBlocked);
  return R;
}

Reproduction reproduceThreeStagePipeline(Bench &B) {
  PipelineShape Shape = B.Shape;
  Shape.Batches = 4;
  Shape.Streams = 4;
  DeviceSide Device(Shape);
  StageTimer Timer(Shape, Device);
  auto IO = makePipelineIO(Shape, HostAllocation::CudaMallocHost);
  std::size_t N = Shape.BatchElements;
  auto Issue = [&Shape, &Device, Data = IO.get(), N](bool OneStream) {
    for (unsigned Batch = 0; Batch < Shape.Batches; ++Batch)
      issueBatch(Shape, Device, Batch, Data->In.data() + Batch * N,
                 Data->Out.data() + Batch * N,
                 Device.stream(OneStream ? 0 : Batch));
  };
  auto Finish = [&Device] { Device.synchronizeStreams(); };
  PipelineVariant Sequential = pipelineVariant(
      Shape, "sequential, 1 stream", Role::Buggy, "all 4 batches on one stream",
      HostAllocation::CudaMallocHost, IO, [Issue] { Issue(true); }, Finish);
  PipelineVariant Pipelined = pipelineVariant(
      Shape, "pipelined, 4 streams", Role::Fixed, "batch b on stream b",
      HostAllocation::CudaMallocHost, IO, [Issue] { Issue(false); }, Finish);
  std::vector<VariantResult> Runs = measureTogether(
      {Sequential, Pipelined}, Timer, Shape, Device, B.Settings);
  const VariantResult &Serial = Runs[0], &Overlapped = Runs[1];
  const StageTimes &Stages = Overlapped.Stages;

  double Unit = Stages.sumMs() / 3;
  Reproduction R;
  R.Seed = "002";
  R.Title = "4 batches x 3 stages (H2D, kernel, D2H) over 4 streams";
  R.add("time unit (mean stage time)", "ms", std::nullopt, Unit);
  R.add("H2D stage", "units", 1.0, Stages.HostToDeviceMs / Unit);
  R.add("kernel stage", "units", 1.0, Stages.KernelMs / Unit);
  R.add("D2H stage", "units", 1.0, Stages.DeviceToHostMs / Unit);
  R.add("sequential total", "units", 12.0, Serial.TimeMs.Median / Unit);
  R.add("pipelined total", "units", 6.0, Overlapped.TimeMs.Median / Unit);
  R.add("pipelined total, ideal schedule of the stages alone", "units",
        std::nullopt, Overlapped.IdealAloneMs / Unit);
  R.add("pipelined total, ideal schedule of the stages together", "units",
        std::nullopt, Overlapped.IdealMs / Unit);
  R.add("speedup", "x", 2.0, Serial.TimeMs.Median / Overlapped.TimeMs.Median);
  R.add("overlap efficiency of the pipelined run", "%", 100.0,
        100 * Overlapped.Efficiency);
  bool Correct = Serial.Output && Serial.Output->Correct && Overlapped.Output &&
                 Overlapped.Output->Correct;
  R.Conclusion =
      format("predicted 12 -> 6 units (2.00x); measured %.2f -> "
             "%.2f units (%.2fx), stage imbalance %.0f%%",
             Serial.TimeMs.Median / Unit, Overlapped.TimeMs.Median / Unit,
             Serial.TimeMs.Median / Overlapped.TimeMs.Median,
             100 * (Stages.longestMs() / Unit - 1)) +
      (Correct ? "; outputs right" : "; OUTPUTS WRONG");
  if (Serial.Traced)
    R.Timelines.emplace_back("sequential, 1 stream (measured)", Serial.Trace);
  if (Overlapped.Traced)
    R.Timelines.emplace_back("pipelined, 4 streams (measured)",
                             Overlapped.Trace);
  R.Timelines.emplace_back(
      "pipelined (ideal schedule, stages measured together)",
      idealSchedule(Overlapped.Profile, Shape.Batches, Shape.Streams));
  return R;
}

} // namespace cuda_async_verify
