//===- Verdict.cpp - Did the fix restore overlap or correctness? ----------===//

#include "Verdict.h"
#include "Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

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

std::string interval(const Interval &I, const char *Format, double Scale) {
  return format("%.0f%% interval ", 100 * I.Confidence) +
         format(Format, Scale * I.Low) + "-" + format(Format, Scale * I.High);
}

Verdict judgeOverlap(const std::vector<const VariantResult *> &Fixed,
                     const CheckResult &Check, const Criteria &Bar) {
  for (const VariantResult *F : Fixed)
    if (!isCorrect(*F))
      return make(VerdictKind::FixIncorrect, F->Name + ": " + wrongness(*F));
  // A bar missed for sure fails the check whatever else could not be told;
  // the first bar the runs could not decide is the reason otherwise.
  std::optional<Verdict> Undecided;
  auto Unsure = [&](std::string Reason) {
    if (!Undecided)
      Undecided = make(VerdictKind::Inconclusive, std::move(Reason));
  };
  for (const VariantResult *F : Fixed) {
    if (std::isnan(F->Efficiency)) {
      Unsure(F->Name +
             format(": this machine ran the stages no faster together than "
                    "one after another (ideal %.3f ms, serial %.3f ms), so "
                    "there is no overlap to restore",
                    F->IdealMs, F->SerialMs));
      continue;
    }
    const Interval &I = F->EfficiencyInterval;
    std::string Reached =
        F->Name +
        format(" reaches %.0f%% overlap efficiency (", 100 * F->Efficiency) +
        interval(I, "%.0f%%", 100) +
        format(", %u runs; target %.0f%%)", I.Samples, 100 * Bar.MinEfficiency);
    if (I.below(Bar.MinEfficiency))
      return make(VerdictKind::FixBelowTarget, Reached + noiseNote(*F));
    if (!I.above(Bar.MinEfficiency))
      Unsure(Reached + format(": its runs spread %.0f%% on this machine, too "
                              "widely to tell",
                              100 * F->TimeMs.relativeSpread()));
  }
  std::string Reason;
  for (const Speedup &S : speedups(Check)) {
    std::string Ratio = S.Fixed->Name +
                        format(" is %.2fx as fast as ", S.Range.Median) +
                        S.Buggy->Name + " (" + interval(S.Range, "%.2fx", 1) +
                        format("; margin %.2fx)", Bar.MinSpeedup);
    if (S.Range.below(Bar.MinSpeedup))
      return make(VerdictKind::NoClearGain, Ratio);
    if (!S.Range.above(Bar.MinSpeedup)) {
      Unsure(Ratio + ": too close to tell on this machine");
      continue;
    }
    if (!Reason.empty())
      Reason += "; ";
    Reason += S.Fixed->Name +
              format(": %.0f%% efficiency, %.2fx faster than ",
                     100 * S.Fixed->Efficiency, S.Range.Median) +
              S.Buggy->Name;
  }
  if (Undecided)
    return *Undecided;
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

std::vector<Speedup> speedups(const CheckResult &Check) {
  std::vector<Speedup> All;
  for (const VariantResult &F : Check.Variants)
    for (const VariantResult &B : Check.Variants)
      if (F.Kind == Role::Fixed && B.Kind == Role::Buggy && F.Timed &&
          B.Timed) {
        Speedup S;
        S.Fixed = &F;
        S.Buggy = &B;
        S.Range =
            medianInterval(pairedRatios(B.TimeMs.Samples, F.TimeMs.Samples));
        All.push_back(S);
      }
  return All;
}

Verdict judge(const CheckResult &Check, const Criteria &Bar) {
  std::vector<const VariantResult *> Buggy, Fixed;
  for (const VariantResult &V : Check.Variants)
    (V.Kind == Role::Buggy ? Buggy : Fixed).push_back(&V);
  if (Buggy.empty() || Fixed.empty())
    return make(VerdictKind::NotMeasured,
                "needs at least one buggy and one fixed variant");
  return Check.Kind == CheckKind::Overlap ? judgeOverlap(Fixed, Check, Bar)
                                          : judgeCorrectness(Buggy, Fixed);
}

} // namespace cuda_async_verify
