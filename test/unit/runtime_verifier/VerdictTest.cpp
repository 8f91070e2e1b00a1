//===- VerdictTest.cpp - Did the fix restore overlap or correctness? ------===//

#include "Verdict.h"
#include "SyntheticReport.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;
using namespace cuda_async_verify::synthetic;

namespace {

TEST(Verdict, FixRestoresOverlap) {
  // Serial 12, ideal 6: the fixed median 6.2 is 97% efficient.
  Verdict V = judge(pageableCheck({12.1, 12.0, 11.9}, {6.1, 6.2, 6.3}), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixRestoresOverlap);
  EXPECT_TRUE(V.passed());
  EXPECT_EQ(V.Reason,
            "cudaMallocHost: 97% efficiency, 1.94x faster than malloc");
}

TEST(Verdict, FixBelowTheEfficiencyTarget) {
  // 7.0 ms is (12 - 7) / 6 = 83% efficient, in every run.
  Verdict V = judge(pageableCheck({12, 12, 12}, {7, 7, 7}), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixBelowTarget);
  EXPECT_TRUE(V.failed());
  EXPECT_EQ(V.Reason, "cudaMallocHost reaches 83% overlap efficiency (75% "
                      "interval 83%-83%, 3 runs; target 90%)");
  // The target is a setting.
  Criteria Lenient;
  Lenient.MinEfficiency = 0.8;
  EXPECT_TRUE(judge(pageableCheck({12, 12, 12}, {7, 7, 7}), Lenient).passed());
}

TEST(Verdict, RunsAcrossTheBarAreInconclusive) {
  // Median 83%, but the runs reach 92%: the interval holds the bar.
  Verdict V = judge(pageableCheck({12, 12, 12}, {6.5, 7, 9}), {});
  EXPECT_EQ(V.Kind, VerdictKind::Inconclusive);
  EXPECT_TRUE(V.inconclusive());
  EXPECT_FALSE(V.passed());
  EXPECT_FALSE(V.failed());
  EXPECT_EQ(V.Reason, "cudaMallocHost reaches 83% overlap efficiency (75% "
                      "interval 50%-92%, 3 runs; target 90%): its runs spread "
                      "36% on this machine, too widely to tell");
}

TEST(Verdict, TwentyRunsDecideOnTheMiddleOfThem) {
  // Five slow runs of twenty (a busy spell) leave the 96% interval, the
  // 6th to the 15th run in order, above the bar.
  std::vector<double> Fixed(15, 6.2), Buggy(20, 12);
  for (double Slow : {7.5, 7.6, 7.7, 7.8, 7.9})
    Fixed.push_back(Slow);
  Verdict V = judge(pageableCheck(Buggy, Fixed), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixRestoresOverlap) << V.Reason;
  // Eleven slow runs move the median below it, but not the interval;
  // sixteen move the interval too.
  for (int I = 0; I < 6; ++I)
    Fixed[I] = 7.5;
  EXPECT_EQ(judge(pageableCheck(Buggy, Fixed), {}).Kind,
            VerdictKind::Inconclusive);
  for (int I = 6; I < 11; ++I)
    Fixed[I] = 7.5;
  EXPECT_EQ(judge(pageableCheck(Buggy, Fixed), {}).Kind,
            VerdictKind::FixBelowTarget);
}

TEST(Verdict, WideSpreadIsCalledOutOnAFailure) {
  // Every run below the bar, but spread widely.
  Verdict V = judge(pageableCheck({12, 12, 12}, {7, 7.2, 9}), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixBelowTarget);
  EXPECT_NE(V.Reason.find("; its runs spread 28% around the median: a busy "
                          "machine, measure again"),
            std::string::npos)
      << V.Reason;
}

TEST(Verdict, NoClearGainBelowTheMargin) {
  // Both variants overlap well: 6.2 vs 6.5 is under 1.10x in every run.
  Verdict V = judge(pageableCheck({6.5, 6.5, 6.5}, {6.2, 6.2, 6.2}), {});
  EXPECT_EQ(V.Kind, VerdictKind::NoClearGain);
  EXPECT_NE(V.Reason.find("cudaMallocHost is 1.05x as fast as malloc"),
            std::string::npos)
      << V.Reason;
}

TEST(Verdict, SpeedupAcrossTheMarginIsInconclusive) {
  // Medians 1.9x apart, but in one repeat the buggy run was as fast.
  Verdict V = judge(pageableCheck({12, 12, 6.3}, {6.1, 6.2, 6.3}), {});
  EXPECT_EQ(V.Kind, VerdictKind::Inconclusive);
  EXPECT_NE(V.Reason.find("too close to tell on this machine"),
            std::string::npos);
}

TEST(Verdict, SlowSpellsTouchingBothVariantsCancel) {
  // Each repeat runs both variants; a spell that slowed a repeat by 2x
  // slowed both, and their ratio stays 1.9x.
  CheckResult C =
      pageableCheck({12, 24, 12, 24, 12}, {6.2, 12.4, 6.2, 12.4, 6.2});
  std::vector<Speedup> S = speedups(C);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_NEAR(S[0].Range.Low, 12 / 6.2, 1e-12);
  EXPECT_NEAR(S[0].Range.High, 12 / 6.2, 1e-12);
}

TEST(Verdict, BuiltOnTheStagesAsTheMachineRunsThemTogether) {
  // Alone each stage takes 1 ms; beside another engine 1.3 ms. The ideal of
  // 4 batches is then 7.2 ms, not 6, and a fix at 7.4 ms is 96% efficient
  // here, where the stages measured alone would call it 77%.
  CheckResult C = pageableCheck({12, 12, 12}, {7.4, 7.4, 7.4});
  VariantResult &Fixed = C.Variants[1];
  StageProfile Here(StageTimes{1, 1, 1});
  for (EngineSet Set : concurrentSets(false))
    Here.setTogether(Set, StageTimes{1.3, 1.3, 1.3});
  Fixed.StageRuns.assign(3, Here);
  Fixed.deriveOverlap(4, 4);
  EXPECT_NEAR(Fixed.IdealMs, 7.2, 1e-9);
  EXPECT_NEAR(Fixed.IdealAloneMs, 6, 1e-9);
  EXPECT_NEAR(Fixed.Efficiency, 4.6 / 4.8, 1e-9);
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::FixRestoresOverlap);
}

TEST(Verdict, AMachineThatCannotOverlapIsInconclusive) {
  // Together each stage takes three times as long: the ideal saves nothing.
  CheckResult C = pageableCheck({40, 40, 40}, {12, 12, 12});
  StageProfile Here(StageTimes{1, 1, 1});
  for (EngineSet Set : concurrentSets(false))
    Here.setTogether(Set, StageTimes{3, 3, 3});
  C.Variants[1].StageRuns.assign(3, Here);
  C.Variants[1].deriveOverlap(4, 4);
  Verdict V = judge(C, {});
  EXPECT_EQ(V.Kind, VerdictKind::Inconclusive);
  EXPECT_NE(V.Reason.find("no faster together than one after another"),
            std::string::npos);
}

TEST(Verdict, AMissedBarOutranksAnUndecidedOne) {
  CheckResult C = pageableCheck({12, 12, 12}, {6.5, 7, 9});
  C.Variants.push_back(timedVariant("cudaHostRegister", Role::Fixed, {9, 9}));
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::FixBelowTarget);
}

TEST(Verdict, MeasuringAgainAddsTheRuns) {
  // Three runs decide nothing (the interval of three is min..max); the same
  // spread over twenty runs does.
  CheckResult C = pageableCheck({12, 12, 12}, {6.2, 6.3, 6.9});
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::Inconclusive);
  CheckResult Again = pageableCheck(
      std::vector<double>(17, 12), {6.2, 6.3, 6.2, 6.3, 6.2, 6.3, 6.2, 6.3, 6.2,
                                    6.3, 6.2, 6.3, 6.2, 6.3, 6.2, 6.3, 6.9});
  for (size_t I = 0; I < C.Variants.size(); ++I)
    C.Variants[I].append(Again.Variants[I], 4, 4);
  EXPECT_EQ(C.Variants[1].TimeMs.Samples.size(), 20u);
  EXPECT_EQ(C.Variants[1].EfficiencyInterval.Samples, 20u);
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::FixRestoresOverlap);
}

TEST(Verdict, WrongOutputFailsAFastFix) {
  CheckResult C = pageableCheck({12, 12, 12}, {6, 6, 6});
  C.Variants[1].Output = Correctness{false, 10, 3, ""};
  Verdict V = judge(C, {});
  EXPECT_EQ(V.Kind, VerdictKind::FixIncorrect);
  EXPECT_EQ(V.Reason, "cudaMallocHost: 3 of 10 values wrong");
}

TEST(Verdict, EveryFixedVariantMustPass) {
  CheckResult C = pageableCheck({12, 12, 12}, {6.2, 6.2, 6.2});
  C.Variants.push_back(timedVariant("cudaHostRegister", Role::Fixed, {9, 9}));
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::FixBelowTarget);
}

CheckResult raceCheck(bool BuggyCorrect, bool FixedCorrect) {
  CheckResult C;
  C.CheckId = "cuda-async-unsynchronized-access";
  C.Kind = CheckKind::Correctness;
  VariantResult Buggy, Fixed;
  Buggy.Name = "read before sync";
  Buggy.Output = Correctness{BuggyCorrect, 100, BuggyCorrect ? 0u : 40u,
                             BuggyCorrect ? "all right" : "40 stale"};
  Fixed.Name = "read after sync";
  Fixed.Kind = Role::Fixed;
  Fixed.Output = Correctness{FixedCorrect, 100, FixedCorrect ? 0u : 1u,
                             FixedCorrect ? "all right" : "1 wrong"};
  C.Variants = {Buggy, Fixed};
  return C;
}

TEST(Verdict, FixRestoresCorrectness) {
  Verdict V = judge(raceCheck(false, true), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixRestoresCorrectness);
  EXPECT_EQ(V.Reason, "read before sync: 40 stale; the fix is correct");
}

TEST(Verdict, RaceThatDidNotShowIsNotAPass) {
  Verdict V = judge(raceCheck(true, true), {});
  EXPECT_EQ(V.Kind, VerdictKind::BugNotObserved);
  EXPECT_FALSE(V.passed());
  // Nor a failure of the fix: the measurement could not tell.
  EXPECT_TRUE(V.inconclusive());
}

TEST(Verdict, WrongFixOutranksEverything) {
  EXPECT_EQ(judge(raceCheck(true, false), {}).Kind, VerdictKind::FixIncorrect);
}

TEST(Verdict, NeedsBothRoles) {
  CheckResult C = pageableCheck({12}, {6});
  C.Variants.pop_back();
  EXPECT_EQ(judge(C, {}).Kind, VerdictKind::NotMeasured);
  EXPECT_FALSE(judge(C, {}).passed());
}

} // namespace

namespace {

TEST(Report, AllPassedNeedsEveryVerdict) {
  Report R = synthetic::sampleReport();
  EXPECT_TRUE(R.allPassed());
  R.Checks[1].Outcome = judge(raceCheck(true, true), R.Bar);
  EXPECT_FALSE(R.allPassed());
  EXPECT_TRUE(Report().allPassed()); // nothing selected, nothing failed
  EXPECT_EQ(R.count(&Verdict::passed), 1u);
  EXPECT_EQ(R.count(&Verdict::inconclusive), 1u);
  EXPECT_EQ(R.count(&Verdict::failed), 0u);
}

TEST(VariantResult, DerivedOverlapFollowsTheModel) {
  VariantResult V = timedVariant("created streams", Role::Fixed, {6.6});
  EXPECT_DOUBLE_EQ(V.SerialMs, 12);
  EXPECT_DOUBLE_EQ(V.IdealMs, 6);
  EXPECT_DOUBLE_EQ(V.Efficiency, 0.9);
}

} // namespace
