//===- StatisticsTest.cpp - Median and spread of repeated runs ------------===//

#include "Statistics.h"

#include <gtest/gtest.h>

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

} // namespace
