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
  // 7.0 ms is (12 - 7) / 6 = 83% efficient.
  Verdict V = judge(pageableCheck({12, 12, 12}, {7, 7, 7}), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixBelowTarget);
  EXPECT_FALSE(V.passed());
  EXPECT_EQ(V.Reason,
            "cudaMallocHost reaches 83% overlap efficiency (target 90%)");
  // The target is a setting.
  Criteria Lenient;
  Lenient.MinEfficiency = 0.8;
  EXPECT_TRUE(judge(pageableCheck({12, 12, 12}, {7, 7, 7}), Lenient).passed());
}

TEST(Verdict, WideSpreadIsCalledOut) {
  Verdict V = judge(pageableCheck({12, 12, 12}, {6.5, 7, 9}), {});
  EXPECT_EQ(V.Kind, VerdictKind::FixBelowTarget);
  EXPECT_EQ(V.Reason, "cudaMallocHost reaches 83% overlap efficiency (target "
                      "90%); its runs spread 36% around the median: a busy "
                      "machine, measure again");
}

TEST(Verdict, NoClearGainBelowTheMargin) {
  // Both variants overlap well: 6.2 vs 6.5 is under 1.10x.
  Verdict V = judge(pageableCheck({6.5, 6.5, 6.5}, {6.2, 6.2, 6.2}), {});
  EXPECT_EQ(V.Kind, VerdictKind::NoClearGain);
  EXPECT_NE(V.Reason.find("1.05x of malloc"), std::string::npos);
}

TEST(Verdict, NoClearGainWhenSpreadsOverlap) {
  // Medians 1.9x apart, but one buggy run was as fast as a fixed one.
  Verdict V = judge(pageableCheck({12, 12, 6.3}, {6.1, 6.2, 6.3}), {});
  EXPECT_EQ(V.Kind, VerdictKind::NoClearGain);
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

TEST(Verdict, FixedSpreadIgnoresBuggyVariants) {
  // Pageable copies vary a lot; only the fixed runs decide whether the
  // machine was busy.
  CheckResult C = pageableCheck({10, 20, 30}, {6, 6.3, 6.6});
  EXPECT_NEAR(fixedSpread(C), 0.6 / 6.3, 1e-12);
  EXPECT_LE(fixedSpread(C), NoisySpread);
  C.Variants[1] = timedVariant("cudaMallocHost", Role::Fixed, {6, 6.3, 9});
  EXPECT_GT(fixedSpread(C), NoisySpread);
  CheckResult Untimed;
  EXPECT_EQ(fixedSpread(Untimed), 0);
}

} // namespace

namespace {

TEST(Report, AllPassedNeedsEveryVerdict) {
  Report R = synthetic::sampleReport();
  EXPECT_TRUE(R.allPassed());
  R.Checks[1].Outcome = judge(raceCheck(true, true), R.Bar);
  EXPECT_FALSE(R.allPassed());
  EXPECT_TRUE(Report().allPassed()); // nothing selected, nothing failed
}

TEST(VariantResult, DerivedOverlapFollowsTheModel) {
  VariantResult V = timedVariant("created streams", Role::Fixed, {6.6});
  EXPECT_DOUBLE_EQ(V.SerialMs, 12);
  EXPECT_DOUBLE_EQ(V.IdealMs, 6);
  EXPECT_DOUBLE_EQ(V.Efficiency, 0.9);
}

} // namespace
