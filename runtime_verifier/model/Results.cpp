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
  case VerdictKind::Inconclusive:
    return "inconclusive on this machine";
  case VerdictKind::NotMeasured:
    return "not measured";
  }
  return "?";
}

void VariantResult::deriveOverlap(unsigned Batches, unsigned Streams) {
  if (!StageRuns.empty()) {
    Profile = medianProfile(StageRuns);
    Stages = Profile.alone();
  } else {
    Profile = StageProfile(Stages);
  }
  SerialMs = serialTimeMs(Stages, Batches);
  IdealMs = idealTimeMs(Profile, Batches, Streams);
  IdealAloneMs = idealTimeMs(StageProfile(Stages), Batches, Streams);
  // Each run against the stages of its own repeat: a slow spell that
  // slowed both cancels.
  std::vector<double> Runs;
  for (size_t I = 0; I < TimeMs.Samples.size(); ++I) {
    const StageProfile &P = I < StageRuns.size() ? StageRuns[I] : Profile;
    Runs.push_back(overlapEfficiency(serialTimeMs(P.alone(), Batches),
                                     idealTimeMs(P, Batches, Streams),
                                     TimeMs.Samples[I]));
  }
  EfficiencyInterval = medianInterval(Runs);
  Efficiency = EfficiencyInterval.Median;
}

void VariantResult::append(const VariantResult &Again, unsigned Batches,
                           unsigned Streams) {
  auto Joined = [](const Summary &A, const Summary &B) {
    std::vector<double> All = A.Samples;
    All.insert(All.end(), B.Samples.begin(), B.Samples.end());
    return summarize(std::move(All));
  };
  // Runs without their own stages take the median ones, so the samples and
  // the stage runs stay side by side.
  auto Runs = [](const VariantResult &V) {
    std::vector<StageProfile> R = V.StageRuns;
    R.resize(V.TimeMs.Samples.size(), V.StageRuns.empty()
                                          ? StageProfile(V.Stages)
                                          : medianProfile(V.StageRuns));
    return R;
  };
  std::vector<StageProfile> All = Runs(*this), More = Runs(Again);
  All.insert(All.end(), More.begin(), More.end());
  StageRuns = std::move(All);
  TimeMs = Joined(TimeMs, Again.TimeMs);
  WallMs = Joined(WallMs, Again.WallMs);
  // A wrong output in any measurement stays reported.
  if (Again.Output && (!Output || Output->Correct))
    Output = Again.Output;
  if (!Traced && Again.Traced)
    setTrace(Again.Trace);
  deriveOverlap(Batches, Streams);
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
  return count(&Verdict::passed) == Checks.size();
}

unsigned Report::count(bool (Verdict::*Is)() const) const {
  unsigned N = 0;
  for (const CheckResult &C : Checks)
    N += (C.Outcome.*Is)();
  return N;
}

} // namespace cuda_async_verify
