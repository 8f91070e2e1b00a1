//===- PipelineModel.cpp - Serial and ideal pipelined time ----------------===//

#include "PipelineModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuda_async_verify {

double StageTimes::longestMs() const {
  return std::max({HostToDeviceMs, KernelMs, DeviceToHostMs});
}

double serialTimeMs(const StageTimes &Stages, unsigned Batches) {
  return Batches * Stages.sumMs();
}

Timeline idealSchedule(const StageTimes &Stages, unsigned Batches,
                       unsigned Streams) {
  Timeline Schedule;
  if (Streams == 0)
    return Schedule;
  const Engine Order[] = {Engine::HostToDevice, Engine::Kernel,
                          Engine::DeviceToHost};
  const double Duration[] = {Stages.HostToDeviceMs, Stages.KernelMs,
                             Stages.DeviceToHostMs};
  double EngineFree[3] = {0, 0, 0};
  std::vector<double> StreamFree(Streams, 0);
  for (unsigned Batch = 0; Batch < Batches; ++Batch) {
    unsigned Stream = Batch % Streams;
    // A stream runs its operations in issue order, so each stage of a batch
    // also waits for the one before it.
    double Ready = StreamFree[Stream];
    for (int Stage = 0; Stage < 3; ++Stage) {
      Activity A;
      A.Where = Order[Stage];
      A.Stream = Stream;
      A.StartMs = std::max(Ready, EngineFree[Stage]);
      A.EndMs = A.StartMs + Duration[Stage];
      EngineFree[Stage] = A.EndMs;
      Ready = A.EndMs;
      Schedule.Activities.push_back(A);
    }
    StreamFree[Stream] = Ready;
  }
  return Schedule;
}

double idealTimeMs(const StageTimes &Stages, unsigned Batches,
                   unsigned Streams) {
  return idealSchedule(Stages, Batches, Streams).spanMs();
}

double overlapEfficiency(double SerialMs, double IdealMs, double MeasuredMs) {
  double Room = SerialMs - IdealMs;
  if (!(Room > 1e-9 * std::max(1.0, SerialMs)))
    return std::numeric_limits<double>::quiet_NaN();
  return (SerialMs - MeasuredMs) / Room;
}

} // namespace cuda_async_verify
