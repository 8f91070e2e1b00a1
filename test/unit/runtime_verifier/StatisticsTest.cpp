//===- StatisticsTest.cpp - Median and spread of repeated runs ------------===//

#include "Statistics.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cuda_async_verify;

namespace {

TEST(Statistics, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(summarize({3, 1, 2}).Median, 2);
  EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).Median, 2.5);
  EXPECT_DOUBLE_EQ(summarize({7}).Median, 7);
}

TEST(Statistics, SpreadAndSamplesInTakenOrder) {
  Summary S = summarize({5, 1, 9, 3});
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 9);
  EXPECT_DOUBLE_EQ(S.relativeSpread(), 8 / 4.0);
  EXPECT_EQ(S.Samples, (std::vector<double>{5, 1, 9, 3}));
}

TEST(Statistics, EmptyAndZero) {
  Summary Empty = summarize({});
  EXPECT_DOUBLE_EQ(Empty.Median, 0);
  EXPECT_DOUBLE_EQ(Empty.relativeSpread(), 0);
  EXPECT_TRUE(Empty.Samples.empty());
  EXPECT_DOUBLE_EQ(summarize({0, 0}).relativeSpread(), 0);
}

TEST(Statistics, MedianIntervalOfTwentyRunsIsTheSixthToTheFifteenth) {
  std::vector<double> Runs;
  for (int I = 20; I >= 1; --I)
    Runs.push_back(I);
  Interval I = medianInterval(Runs);
  EXPECT_DOUBLE_EQ(I.Low, 6);
  EXPECT_DOUBLE_EQ(I.High, 15);
  EXPECT_NEAR(I.Confidence, 0.9586, 1e-4);
  EXPECT_EQ(I.Samples, 20u);
  EXPECT_DOUBLE_EQ(I.Median, 10.5);
  // A bar is met, missed, or undecided by the whole interval.
  EXPECT_TRUE(I.above(6));
  EXPECT_TRUE(I.below(15.5));
  EXPECT_FALSE(I.above(10) || I.below(10));
}

TEST(Statistics, FewRunsGiveTheirRangeAtLowerConfidence) {
  Interval Three = medianInterval({5, 1, 3});
  EXPECT_DOUBLE_EQ(Three.Low, 1);
  EXPECT_DOUBLE_EQ(Three.High, 5);
  EXPECT_DOUBLE_EQ(Three.Confidence, 0.75);
  // Undefined runs are left out; none left is no interval.
  EXPECT_EQ(medianInterval({NAN, 2, 4}).Samples, 2u);
  EXPECT_TRUE(std::isnan(medianInterval({NAN}).Low));
  EXPECT_TRUE(std::isnan(medianInterval({}).High));
  EXPECT_TRUE(std::isnan(medianInterval({}).Median));
  EXPECT_FALSE(medianInterval({}).above(0) || medianInterval({}).below(0));
}

TEST(Statistics, RatiosOfRunsTakenSideBySide) {
  EXPECT_EQ(pairedRatios({4, 9}, {2, 3}), (std::vector<double>{2, 3}));
  // Counts that differ give every pair.
  EXPECT_EQ(pairedRatios({4}, {2, 1}), (std::vector<double>{2, 4}));
}

} // namespace
