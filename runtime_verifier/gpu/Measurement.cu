//===- Measurement.cu - Timing variants of the reference pipeline ---------===//

#include "Measurement.h"

#include "CudaCheck.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace cuda_async_verify {

double hostMs(const std::function<void()> &Work) {
  auto Start = std::chrono::steady_clock::now();
  Work();
  auto End = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(End - Start).count();
}

double eventMs(cudaStream_t Stream, const std::function<void()> &Enqueue) {
  cudaEvent_t Start, Stop;
  check(cudaEventCreate(&Start), "cudaEventCreate");
  check(cudaEventCreate(&Stop), "cudaEventCreate");
  check(cudaEventRecord(Start, Stream), "cudaEventRecord");
  Enqueue();
  check(cudaEventRecord(Stop, Stream), "cudaEventRecord");
  check(cudaEventSynchronize(Stop), "cudaEventSynchronize");
  float Ms = 0;
  check(cudaEventElapsedTime(&Ms, Start, Stop), "cudaEventElapsedTime");
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  return Ms;
}

const StageTimes &StageTimer::timesFor(HostAllocation Memory) {
  auto Found = Cache.find(Memory);
  if (Found != Cache.end())
    return Found->second;
  HostBuffer In(Shape.batchBytes(), Memory), Out(Shape.batchBytes(), Memory);
  fillBatch(In.data(), Shape.BatchElements, 0);
  cudaStream_t S = Device.stream(0);
  std::size_t Bytes = Shape.batchBytes();
  std::vector<double> H2D, Kernel, D2H;
  // One extra, untimed round warms each path up.
  for (unsigned I = 0; I <= Repeats; ++I) {
    double Up = eventMs(S, [&] {
      check(cudaMemcpyAsync(Device.input(0), In.data(), Bytes,
                            cudaMemcpyHostToDevice, S),
            "cudaMemcpyAsync (H2D)");
    });
    double Compute = eventMs(S, [&] {
      launchProcess(Device.input(0), Device.output(0), Shape.BatchElements,
                    Shape.Intensity, S);
    });
    double Down = eventMs(S, [&] {
      check(cudaMemcpyAsync(Out.data(), Device.output(0), Bytes,
                            cudaMemcpyDeviceToHost, S),
            "cudaMemcpyAsync (D2H)");
    });
    if (I == 0)
      continue;
    H2D.push_back(Up);
    Kernel.push_back(Compute);
    D2H.push_back(Down);
  }
  StageTimes T;
  T.HostToDeviceMs = summarize(H2D).Median;
  T.KernelMs = summarize(Kernel).Median;
  T.DeviceToHostMs = summarize(D2H).Median;
  return Cache[Memory] = T;
}

VariantResult measure(const PipelineVariant &Variant, const StageTimes &Stages,
                      const PipelineShape &Shape,
                      const MeasureSettings &Settings) {
  VariantResult R;
  R.Name = Variant.Name;
  R.Kind = Variant.Kind;
  R.Description = Variant.Description;
  for (unsigned I = 0; I < Settings.Warmup; ++I)
    Variant.Run();
  std::vector<double> Samples;
  for (unsigned I = 0; I < Settings.Repeats; ++I)
    Samples.push_back(hostMs(Variant.Run));
  R.Timed = true;
  R.TimeMs = summarize(Samples);
  R.Stages = Stages;
  R.deriveOverlap(Shape.Batches, Shape.Streams);

  bool Tracing = Settings.Trace && Settings.Trace->available();
  if (Tracing) {
    Settings.Trace->begin();
    Variant.Run();
    Settings.Trace->mark();
  }
  if (Variant.Prepare)
    Variant.Prepare();
  Variant.Run();
  if (Tracing)
    R.setTrace(Settings.Trace->end());
  if (Variant.Verify)
    R.Output = Variant.Verify();
  return R;
}

void warmUpGpu(const PipelineShape &Shape, const DeviceSide &Device,
               double Ms) {
  cudaStream_t S = Device.stream(0);
  auto Start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
             .count() < Ms) {
    launchProcess(Device.input(0), Device.output(0), Shape.BatchElements, 4096,
                  S);
    check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  }
}

unsigned calibrateIntensity(const PipelineShape &Shape,
                            const DeviceSide &Device, double TargetMs) {
  cudaStream_t S = Device.stream(0);
  auto KernelMs = [&](unsigned Intensity) {
    std::vector<double> Samples;
    for (int I = 0; I < 6; ++I) {
      double Ms = eventMs(S, [&] {
        launchProcess(Device.input(0), Device.output(0), Shape.BatchElements,
                      Intensity, S);
      });
      if (I > 0)
        Samples.push_back(Ms);
    }
    return summarize(Samples).Median;
  };
  // The kernel's time is a fixed memory pass plus a part proportional to
  // the intensity.
  const unsigned Low = 64, High = 4096;
  double LowMs = KernelMs(Low), HighMs = KernelMs(High);
  double PerStep = (HighMs - LowMs) / (High - Low);
  if (!(PerStep > 0))
    return High;
  double Steps = Low + (TargetMs - LowMs) / PerStep;
  return static_cast<unsigned>(std::clamp(std::round(Steps), 1.0, 1e7));
}

Correctness outputCorrectness(std::uint64_t Wrong, std::uint64_t Checked) {
  Correctness C;
  C.Checked = Checked;
  C.Wrong = Wrong;
  C.Correct = Wrong == 0;
  C.Detail = C.Correct ? "all " + std::to_string(Checked) + " outputs right"
                       : std::to_string(Wrong) + " of " +
                             std::to_string(Checked) + " outputs wrong";
  return C;
}

Correctness compareOutputs(const float *In, const float *Out,
                           std::size_t Elements) {
  return outputCorrectness(countWrong(In, Out, Elements), Elements);
}

} // namespace cuda_async_verify
