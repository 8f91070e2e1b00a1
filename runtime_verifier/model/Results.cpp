//===- Results.cpp - What one verification run measured -------------------===//

#include "Results.h"

namespace cuda_async_verify {

const char *roleName(Role R) { return R == Role::Buggy ? "buggy" : "fixed"; }

const char *verdictName(VerdictKind K) {
  switch (K) {
  case VerdictKind::FixRestoresOverlap:
    return "fix restores overlap";
  case VerdictKind::FixRestoresCorrectness:
    return "fix restores correctness";
  case VerdictKind::FixBelowTarget:
    return "fix below efficiency target";
  case VerdictKind::NoClearGain:
    return "no clear gain";
  case VerdictKind::FixIncorrect:
    return "fix incorrect";
  case VerdictKind::BugNotObserved:
    return "bug not observed";
  case VerdictKind::NotMeasured:
    return "not measured";
  }
  return "?";
}

void VariantResult::deriveOverlap(unsigned Batches, unsigned Streams) {
  SerialMs = serialTimeMs(Stages, Batches);
  IdealMs = idealTimeMs(Stages, Batches, Streams);
  Efficiency = overlapEfficiency(SerialMs, IdealMs, TimeMs.Median);
}

void VariantResult::setTrace(Timeline T) {
  Trace = std::move(T);
  Traced = true;
  Concurrency = measureTrace(Trace);
}

void Reproduction::add(std::string Name, std::string Unit,
                       std::optional<double> Predicted, double Measured) {
  Quantities.push_back({std::move(Name), std::move(Unit), Predicted, Measured});
}

bool Report::allPassed() const {
  for (const CheckResult &C : Checks)
    if (!C.Outcome.passed())
      return false;
  return true;
}

} // namespace cuda_async_verify
