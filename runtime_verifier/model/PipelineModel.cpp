//===- PipelineModel.cpp - Serial and ideal pipelined time ----------------===//

#include "PipelineModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cuda_async_verify {

double serialTimeMs(const StageTimes &Stages, unsigned Batches) {
  return Batches * Stages.sumMs();
}

namespace {

/// One operation of the schedule and how much of it is left to run.
struct Operation {
  unsigned Batch = 0;
  unsigned Stage = 0;
  /// The hardware queue that runs it: the stage's engine, or the one copy
  /// engine both copy directions share.
  unsigned Queue = 0;
  bool Started = false;
  bool Done = false;
  /// The fraction of the operation still to run.
  double Left = 1;
  Activity Run;
};

} // namespace

Timeline idealSchedule(const StageProfile &Profile, unsigned Batches,
                       unsigned Streams) {
  Timeline Schedule;
  if (Streams == 0)
    return Schedule;
  std::vector<Operation> Ops;
  for (unsigned Batch = 0; Batch < Batches; ++Batch)
    for (unsigned Stage = 0; Stage < 3; ++Stage) {
      Operation Op;
      Op.Batch = Batch;
      Op.Stage = Stage;
      Op.Queue = Profile.SharedCopyEngine && Stage == 2 ? 0 : Stage;
      Op.Run.Where = PipelineEngines[Stage];
      Op.Run.Stream = Batch % Streams;
      Ops.push_back(Op);
    }
  auto At = [&](unsigned Batch, unsigned Stage) -> Operation & {
    return Ops[Batch * 3 + Stage];
  };
  // A stream runs its operations in issue order, so a stage also waits for
  // the one before it, and a batch for its stream's previous batch.
  auto Ready = [&](const Operation &Op) {
    return (Op.Stage == 0 || At(Op.Batch, Op.Stage - 1).Done) &&
           (Op.Batch < Streams || At(Op.Batch - Streams, 2).Done);
  };
  double Now = 0;
  std::vector<Operation *> Running;
  for (;;) {
    // Each idle queue takes the first ready operation in issue order.
    for (unsigned Queue = 0; Queue < 3; ++Queue) {
      bool Busy =
          std::any_of(Running.begin(), Running.end(),
                      [&](Operation *Op) { return Op->Queue == Queue; });
      if (Busy)
        continue;
      for (Operation &Op : Ops)
        if (Op.Queue == Queue && !Op.Started && Ready(Op)) {
          Op.Started = true;
          Op.Run.StartMs = Now;
          Running.push_back(&Op);
          break;
        }
    }
    if (Running.empty())
      break;
    // Every running operation advances at the speed of the engines busy
    // now, until the first of them ends.
    EngineSet BusyEngines = 0;
    for (Operation *Op : Running)
      BusyEngines |= engineBit(Op->Run.Where);
    double Step = std::numeric_limits<double>::infinity();
    for (Operation *Op : Running)
      Step = std::min(Step, Op->Left * Profile.ms(Op->Run.Where, BusyEngines));
    Now += Step;
    for (Operation *Op : Running) {
      double Ms = Profile.ms(Op->Run.Where, BusyEngines);
      Op->Left = Ms > 0 ? Op->Left - Step / Ms : 0;
      if (Op->Left <= 1e-9) {
        Op->Done = true;
        Op->Run.EndMs = Now;
      }
    }
    Running.erase(std::remove_if(Running.begin(), Running.end(),
                                 [](Operation *Op) { return Op->Done; }),
                  Running.end());
  }
  for (const Operation &Op : Ops)
    Schedule.Activities.push_back(Op.Run);
  return Schedule;
}

double idealTimeMs(const StageProfile &Profile, unsigned Batches,
                   unsigned Streams) {
  return idealSchedule(Profile, Batches, Streams).spanMs();
}

double overlapEfficiency(double SerialMs, double IdealMs, double MeasuredMs) {
  double Room = SerialMs - IdealMs;
  if (!(Room > 1e-9 * std::max(1.0, SerialMs)))
    return std::numeric_limits<double>::quiet_NaN();
  return (SerialMs - MeasuredMs) / Room;
}

} // namespace cuda_async_verify
