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

StageTimer::StageTimer(const PipelineShape &Shape, const DeviceSide &Device)
    : Shape(Shape), Device(Device) {
  int Device0 = 0, Engines = 0;
  check(cudaGetDevice(&Device0), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&Engines, cudaDevAttrAsyncEngineCount, Device0),
        "cudaDeviceGetAttribute");
  // One copy engine moves data in one direction at a time.
  SharedCopyEngine = Engines < 2;
  for (cudaStream_t &S : Streams)
    check(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
  check(cudaEventCreate(&Origin), "cudaEventCreate");
  for (auto &Engine : Marks)
    for (auto &Round : Engine)
      for (cudaEvent_t &E : Round)
        check(cudaEventCreate(&E), "cudaEventCreate");
}

StageTimer::~StageTimer() {
  for (auto &Engine : Marks)
    for (auto &Round : Engine)
      for (cudaEvent_t E : Round)
        cudaEventDestroy(E);
  cudaEventDestroy(Origin);
  for (cudaStream_t S : Streams)
    cudaStreamDestroy(S);
}

const std::pair<HostBuffer, HostBuffer> &
StageTimer::buffers(HostAllocation Memory) {
  auto Found = Buffers.find(Memory);
  if (Found == Buffers.end()) {
    std::pair<HostBuffer, HostBuffer> InOut(
        HostBuffer(Shape.batchBytes(), Memory),
        HostBuffer(Shape.batchBytes(), Memory));
    fillBatch(InOut.first.data(), Shape.BatchElements, 0);
    Found = Buffers.emplace(Memory, std::move(InOut)).first;
  }
  return Found->second;
}

void StageTimer::enqueue(Engine E, HostAllocation Memory, unsigned Batch,
                         cudaStream_t S) {
  const HostBuffer &In = buffers(Memory).first, &Out = buffers(Memory).second;
  std::size_t Bytes = Shape.batchBytes();
  switch (E) {
  case Engine::HostToDevice:
    check(cudaMemcpyAsync(Device.input(Batch), In.data(), Bytes,
                          cudaMemcpyHostToDevice, S),
          "cudaMemcpyAsync (H2D)");
    break;
  case Engine::Kernel:
    Device.launchProcess(Batch, Shape.Intensity, S);
    break;
  case Engine::DeviceToHost:
    check(cudaMemcpyAsync(Out.data(), Device.output(Batch), Bytes,
                          cudaMemcpyDeviceToHost, S),
          "cudaMemcpyAsync (D2H)");
    break;
  }
}

StageTimes StageTimer::alone(HostAllocation Memory) {
  // Allocated (pinned, for most kinds) before any event: not timed.
  buffers(Memory);
  cudaStream_t S = Device.stream(0);
  StageTimes T;
  for (Engine E : PipelineEngines)
    T.set(E, eventMs(S, [&] { enqueue(E, Memory, 0, S); }));
  return T;
}

StageTimes StageTimer::together(HostAllocation Memory, EngineSet Busy) {
  buffers(Memory);
  // Different batches' device buffers, so no operation touches another's
  // data (one batch only: they share it, which timing does not mind).
  auto Slot = [&](unsigned I) { return Shape.Batches ? I % Shape.Batches : 0; };
  const auto &Engines = PipelineEngines;
  check(cudaEventRecord(Origin, Streams[0]), "cudaEventRecord");
  for (cudaStream_t S : Streams)
    check(cudaStreamWaitEvent(S, Origin, 0), "cudaStreamWaitEvent");
  for (unsigned Round = 0; Round < Rounds; ++Round)
    for (unsigned E = 0; E < 3; ++E) {
      if (!contains(Busy, Engines[E]))
        continue;
      cudaStream_t S = Streams[E];
      check(cudaEventRecord(Marks[E][Round][0], S), "cudaEventRecord");
      enqueue(Engines[E], Memory, Slot(E), S);
      check(cudaEventRecord(Marks[E][Round][1], S), "cudaEventRecord");
    }
  for (cudaStream_t S : Streams)
    check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  auto Since = [&](cudaEvent_t E) {
    float Ms = 0;
    check(cudaEventElapsedTime(&Ms, Origin, E), "cudaEventElapsedTime");
    return static_cast<double>(Ms);
  };
  // The window in which every engine of the set was running: from the last
  // first start to the first last end.
  double From = 0, To = 1e300;
  for (unsigned E = 0; E < 3; ++E)
    if (contains(Busy, Engines[E])) {
      From = std::max(From, Since(Marks[E][0][0]));
      To = std::min(To, Since(Marks[E][Rounds - 1][1]));
    }
  StageTimes T;
  for (unsigned E = 0; E < 3; ++E) {
    if (!contains(Busy, Engines[E]))
      continue;
    std::vector<double> Inside;
    for (unsigned Round = 0; Round < Rounds; ++Round) {
      double Start = Since(Marks[E][Round][0]), End = Since(Marks[E][Round][1]);
      // Wholly inside, but for a microsecond of issue skew at its start.
      if (Start >= From - 1e-3 && End <= To)
        Inside.push_back(End - Start);
    }
    // 0 where no operation ran wholly beside the others (the profile then
    // uses the alone time).
    T.set(Engines[E], summarize(Inside).Median);
  }
  return T;
}

StageProfile StageTimer::sample(HostAllocation Memory) {
  StageProfile P(alone(Memory));
  P.SharedCopyEngine = SharedCopyEngine;
  if (Memory != HostAllocation::Malloc)
    for (EngineSet Set : concurrentSets(SharedCopyEngine))
      P.setTogether(Set, together(Memory, Set));
  return P;
}

StageTimes StageTimer::median(HostAllocation Memory, unsigned Repeats) {
  alone(Memory);
  std::vector<StageProfile> Samples;
  for (unsigned I = 0; I < Repeats; ++I)
    Samples.push_back(alone(Memory));
  return medianProfile(Samples).alone();
}

namespace {

/// Events bracketing one run on every stream it may use.
class RunSpan {
public:
  explicit RunSpan(const DeviceSide &Device) : Device(Device) {
    check(cudaEventCreate(&Start), "cudaEventCreate");
    // The created streams and the legacy default stream.
    Ends.resize(Device.streams().size() + 1);
    for (cudaEvent_t &E : Ends)
      check(cudaEventCreate(&E), "cudaEventCreate");
  }
  ~RunSpan() {
    cudaEventDestroy(Start);
    for (cudaEvent_t E : Ends)
      cudaEventDestroy(E);
  }
  /// Every stream is idle here, so the event completes at once.
  void begin() {
    check(cudaEventRecord(Start, Device.stream(0)), "cudaEventRecord");
  }
  void issued() {
    for (size_t I = 0; I < Device.streams().size(); ++I)
      check(cudaEventRecord(Ends[I], Device.streams()[I]), "cudaEventRecord");
    check(cudaEventRecord(Ends.back(), /*legacy default stream*/ 0),
          "cudaEventRecord");
  }
  /// After the variant has synchronized.
  double ms() const {
    double Longest = 0;
    for (cudaEvent_t E : Ends) {
      check(cudaEventSynchronize(E), "cudaEventSynchronize");
      float Ms = 0;
      check(cudaEventElapsedTime(&Ms, Start, E), "cudaEventElapsedTime");
      Longest = std::max(Longest, static_cast<double>(Ms));
    }
    return Longest;
  }

private:
  const DeviceSide &Device;
  cudaEvent_t Start;
  std::vector<cudaEvent_t> Ends;
};

} // namespace

static std::vector<VariantResult>
measureAll(const std::vector<PipelineVariant> &Variants, StageTimer &Stages,
           const PipelineShape &Shape, const DeviceSide &Device,
           const MeasureSettings &Settings);

std::vector<VariantResult>
measureTogether(const std::vector<PipelineVariant> &Variants,
                StageTimer &Stages, const PipelineShape &Shape,
                const DeviceSide &Device, const MeasureSettings &Settings) {
  if (!Settings.OnlyRole)
    return measureAll(Variants, Stages, Shape, Device, Settings);
  std::vector<PipelineVariant> Kept;
  for (const PipelineVariant &V : Variants)
    if (V.Kind == *Settings.OnlyRole)
      Kept.push_back(V);
  if (Kept.empty())
    return {};
  return measureAll(Kept, Stages, Shape, Device, Settings);
}

static std::vector<VariantResult>
measureAll(const std::vector<PipelineVariant> &Variants, StageTimer &Stages,
           const PipelineShape &Shape, const DeviceSide &Device,
           const MeasureSettings &Settings) {
  auto Run = [](const PipelineVariant &V) {
    V.Issue();
    V.Finish();
  };
  for (const PipelineVariant &V : Variants) {
    Stages.sample(V.Memory);
    for (unsigned I = 0; I < Settings.Warmup; ++I)
      Run(V);
  }
  RunSpan Span(Device);
  std::map<HostAllocation, std::vector<StageProfile>> StageSamples;
  std::vector<std::vector<double>> Spans(Variants.size()),
      Walls(Variants.size());
  for (unsigned Repeat = 0; Repeat < Settings.Repeats; ++Repeat) {
    for (const PipelineVariant &V : Variants)
      if (StageSamples[V.Memory].size() == Repeat)
        StageSamples[V.Memory].push_back(Stages.sample(V.Memory));
    for (size_t I = 0; I < Variants.size(); ++I) {
      const PipelineVariant &V = Variants[I];
      Walls[I].push_back(hostMs([&] {
        Span.begin();
        V.Issue();
        Span.issued();
        V.Finish();
      }));
      Spans[I].push_back(Span.ms());
    }
  }

  std::vector<VariantResult> Results;
  for (size_t I = 0; I < Variants.size(); ++I) {
    const PipelineVariant &V = Variants[I];
    VariantResult R;
    R.Name = V.Name;
    R.Kind = V.Kind;
    R.Description = V.Description;
    R.Timed = true;
    R.TimeMs = summarize(Spans[I]);
    R.WallMs = summarize(Walls[I]);
    R.StageRuns = StageSamples[V.Memory];
    R.deriveOverlap(Shape.Batches, Shape.Streams);
    bool Tracing = Settings.Trace && Settings.Trace->available();
    if (Tracing) {
      Settings.Trace->begin();
      Run(V);
      Settings.Trace->mark();
    }
    if (V.Prepare)
      V.Prepare();
    Run(V);
    if (Tracing)
      R.setTrace(Settings.Trace->end());
    if (V.Verify)
      R.Output = V.Verify();
    Results.push_back(std::move(R));
  }
  return Results;
}

void warmUpGpu(const DeviceSide &Device, double Ms) {
  cudaStream_t S = Device.stream(0);
  auto Start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
             .count() < Ms) {
    Device.launchProcess(0, 4096, S);
    check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  }
}

unsigned calibrateIntensity(const DeviceSide &Device, double TargetMs) {
  cudaStream_t S = Device.stream(0);
  auto KernelMs = [&](unsigned Intensity) {
    std::vector<double> Samples;
    for (int I = 0; I < 6; ++I) {
      double Ms = eventMs(S, [&] { Device.launchProcess(0, Intensity, S); });
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
