//===- StageProfile.h - Stage times alone and beside each other -*- C++ -*-===//
//
// A batch's H2D copy, kernel and D2H copy take one time each when timed alone
// and another while the other engines are busy: the copy engines share the
// PCIe link and host memory with each other, and on some hosts a kernel
// beside both copies slows them too. How much depends on the machine, so the
// ideal schedule a fix is judged against is built from times measured here,
// together, as the fixed pipeline runs them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_STAGEPROFILE_H
#define CUDA_ASYNC_VERIFY_MODEL_STAGEPROFILE_H

#include "Timeline.h"

#include <array>
#include <optional>
#include <vector>

namespace cuda_async_verify {

/// Each stage of one batch, timed alone, in milliseconds.
struct StageTimes {
  double HostToDeviceMs = 0;
  double KernelMs = 0;
  double DeviceToHostMs = 0;

  double sumMs() const { return HostToDeviceMs + KernelMs + DeviceToHostMs; }
  double longestMs() const;
  double ms(Engine E) const;
  void set(Engine E, double Ms);
};

/// A set of engines busy at once, one bit per Engine.
using EngineSet = unsigned;
constexpr EngineSet engineBit(Engine E) {
  return 1u << static_cast<unsigned>(E);
}
constexpr EngineSet AllEngines = 7;
bool contains(EngineSet Set, Engine E);
/// Its members' names joined by '+' ("h2d+kernel").
std::string engineSetName(EngineSet Set);
/// The sets of two or more engines a profile is measured for: with one copy
/// engine for both directions, the sets holding both copies cannot occur.
std::vector<EngineSet> concurrentSets(bool SharedCopyEngine);

class StageProfile {
public:
  StageProfile() = default;
  /// A profile measured alone only: every set runs at the alone times.
  StageProfile(const StageTimes &Alone) : Alone(Alone) {}

  const StageTimes &alone() const { return Alone; }
  /// The times of the members of Busy while exactly Busy's engines run.
  void setTogether(EngineSet Busy, const StageTimes &Times);
  std::optional<StageTimes> together(EngineSet Busy) const;
  /// E's time while the engines of Busy (E among them) run; its alone time
  /// where that set was not measured.
  double ms(Engine E, EngineSet Busy) const;

  /// One copy engine serves both directions (a device whose
  /// asyncEngineCount is 1): an H2D and a D2H copy never run at once.
  bool SharedCopyEngine = false;

private:
  StageTimes Alone;
  std::array<std::optional<StageTimes>, 8> Together;
};

/// The median of each measured time over Runs (alone and per set).
StageProfile medianProfile(const std::vector<StageProfile> &Runs);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_STAGEPROFILE_H
