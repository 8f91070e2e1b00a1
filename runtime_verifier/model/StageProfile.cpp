//===- StageProfile.cpp - Stage times alone and beside each other ---------===//

#include "StageProfile.h"
#include "Statistics.h"

#include <algorithm>

namespace cuda_async_verify {

double StageTimes::longestMs() const {
  return std::max({HostToDeviceMs, KernelMs, DeviceToHostMs});
}

double StageTimes::ms(Engine E) const {
  switch (E) {
  case Engine::HostToDevice:
    return HostToDeviceMs;
  case Engine::Kernel:
    return KernelMs;
  case Engine::DeviceToHost:
    return DeviceToHostMs;
  }
  return 0;
}

void StageTimes::set(Engine E, double Ms) {
  switch (E) {
  case Engine::HostToDevice:
    HostToDeviceMs = Ms;
    break;
  case Engine::Kernel:
    KernelMs = Ms;
    break;
  case Engine::DeviceToHost:
    DeviceToHostMs = Ms;
    break;
  }
}

bool contains(EngineSet Set, Engine E) { return Set & engineBit(E); }

std::string engineSetName(EngineSet Set) {
  std::string Name;
  for (Engine E : PipelineEngines)
    if (contains(Set, E))
      Name += (Name.empty() ? "" : "+") + std::string(engineName(E));
  return Name;
}

std::vector<EngineSet> concurrentSets(bool SharedCopyEngine) {
  EngineSet Copies =
      engineBit(Engine::HostToDevice) | engineBit(Engine::DeviceToHost);
  std::vector<EngineSet> Sets;
  for (EngineSet Set = 1; Set <= AllEngines; ++Set)
    if ((Set & (Set - 1)) != 0 &&
        !(SharedCopyEngine && (Set & Copies) == Copies))
      Sets.push_back(Set);
  return Sets;
}

void StageProfile::setTogether(EngineSet Busy, const StageTimes &Times) {
  Together[Busy & AllEngines] = Times;
}

std::optional<StageTimes> StageProfile::together(EngineSet Busy) const {
  return Together[Busy & AllEngines];
}

double StageProfile::ms(Engine E, EngineSet Busy) const {
  const std::optional<StageTimes> &Set = Together[Busy & AllEngines];
  double Measured = Set ? Set->ms(E) : 0;
  return Measured > 0 ? Measured : Alone.ms(E);
}

StageProfile medianProfile(const std::vector<StageProfile> &Runs) {
  auto Median = [&](auto Time) {
    StageTimes T;
    bool Any = false;
    for (Engine E : PipelineEngines) {
      std::vector<double> Samples;
      for (const StageProfile &P : Runs)
        if (std::optional<double> Ms = Time(P, E)) {
          Samples.push_back(*Ms);
          Any = true;
        }
      T.set(E, summarize(Samples).Median);
    }
    return Any ? std::optional<StageTimes>(T) : std::nullopt;
  };
  StageProfile M(Median([](const StageProfile &P, Engine E) {
                   return std::optional<double>(P.alone().ms(E));
                 }).value_or(StageTimes()));
  M.SharedCopyEngine = !Runs.empty() && Runs.front().SharedCopyEngine;
  for (EngineSet Set = 1; Set <= AllEngines; ++Set)
    if (std::optional<StageTimes> T = Median(
            [Set](const StageProfile &P, Engine E) -> std::optional<double> {
              std::optional<StageTimes> Together = P.together(Set);
              if (!Together || !contains(Set, E) || !(Together->ms(E) > 0))
                return std::nullopt;
              return Together->ms(E);
            }))
      M.setTogether(Set, *T);
  return M;
}

} // namespace cuda_async_verify
