//===- Verdict.cpp - Did the fix restore overlap or correctness? ----------===//

#include "Verdict.h"
#include "Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cuda_async_verify {

namespace {

bool isCorrect(const VariantResult &V) {
  return !V.Output || V.Output->Correct;
}

std::string wrongness(const VariantResult &V) {
  if (!V.Output)
    return "no output check";
  if (!V.Output->Detail.empty())
    return V.Output->Detail;
  return std::to_string(V.Output->Wrong) + " of " +
         std::to_string(V.Output->Checked) + " values wrong";
}

/// Runs that spread widely point at a shared, busy machine rather than at
/// the code: say so next to a failed verdict.
std::string noiseNote(const VariantResult &V) {
  double Spread = V.TimeMs.relativeSpread();
  return Spread > NoisySpread
             ? format("; its runs spread %.0f%% around the median: "
                      "a busy machine, measure again",
                      100 * Spread)
             : "";
}

Verdict make(VerdictKind K, std::string Reason) {
  Verdict V;
  V.Kind = K;
  V.Reason = std::move(Reason);
  return V;
}

Verdict judgeOverlap(const std::vector<const VariantResult *> &Buggy,
                     const std::vector<const VariantResult *> &Fixed,
                     const Criteria &Bar) {
  for (const VariantResult *F : Fixed)
    if (!isCorrect(*F))
      return make(VerdictKind::FixIncorrect, F->Name + ": " + wrongness(*F));
  for (const VariantResult *F : Fixed)
    if (!(F->Efficiency >= Bar.MinEfficiency))
      return make(VerdictKind::FixBelowTarget,
                  F->Name + " reaches " +
                      (std::isnan(F->Efficiency)
                           ? std::string("no measurable overlap room")
                           : format("%.0f%%", 100 * F->Efficiency)) +
                      format(" overlap efficiency (target %.0f%%)",
                             100 * Bar.MinEfficiency) +
                      noiseNote(*F));
  std::string Reason;
  for (const VariantResult *F : Fixed) {
    for (const VariantResult *B : Buggy) {
      double Speedup = B->TimeMs.Median / F->TimeMs.Median;
      if (!(Speedup >= Bar.MinSpeedup) || B->TimeMs.Min <= F->TimeMs.Max)
        return make(VerdictKind::NoClearGain,
                    F->Name + " is " + format("%.2fx", Speedup) + " of " +
                        B->Name +
                        format(" (margin %.2fx, spreads must not overlap)",
                               Bar.MinSpeedup));
      if (!Reason.empty())
        Reason += "; ";
      Reason += F->Name +
                format(": %.0f%% efficiency, %.2fx faster than ",
                       100 * F->Efficiency, Speedup) +
                B->Name;
    }
  }
  return make(VerdictKind::FixRestoresOverlap, Reason);
}

Verdict judgeCorrectness(const std::vector<const VariantResult *> &Buggy,
                         const std::vector<const VariantResult *> &Fixed) {
  for (const VariantResult *F : Fixed)
    if (!isCorrect(*F))
      return make(VerdictKind::FixIncorrect, F->Name + ": " + wrongness(*F));
  for (const VariantResult *B : Buggy)
    if (isCorrect(*B))
      return make(VerdictKind::BugNotObserved,
                  B->Name + " ran correctly this time (" + wrongness(*B) +
                      "); the failure depends on timing");
  std::string Reason;
  for (const VariantResult *B : Buggy) {
    if (!Reason.empty())
      Reason += "; ";
    Reason += B->Name + ": " + wrongness(*B);
  }
  return make(VerdictKind::FixRestoresCorrectness,
              Reason + (Fixed.size() == 1 ? "; the fix is correct"
                                          : "; every fix is correct"));
}

} // namespace

double fixedSpread(const CheckResult &Check) {
  double Widest = 0;
  for (const VariantResult &V : Check.Variants)
    if (V.Kind == Role::Fixed && V.Timed)
      Widest = std::max(Widest, V.TimeMs.relativeSpread());
  return Widest;
}

Verdict judge(const CheckResult &Check, const Criteria &Bar) {
  std::vector<const VariantResult *> Buggy, Fixed;
  for (const VariantResult &V : Check.Variants)
    (V.Kind == Role::Buggy ? Buggy : Fixed).push_back(&V);
  if (Buggy.empty() || Fixed.empty())
    return make(VerdictKind::NotMeasured,
                "needs at least one buggy and one fixed variant");
  return Check.Kind == CheckKind::Overlap ? judgeOverlap(Buggy, Fixed, Bar)
                                          : judgeCorrectness(Buggy, Fixed);
}

} // namespace cuda_async_verify
