//===- PipelineModelTest.cpp - Serial and ideal pipelined time ------------===//

#include "PipelineModel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace cuda_async_verify;

namespace {

TEST(PipelineModel, DocumentTwoFourBatchesOfThreeEqualStages) {
  // Background document 002: 12 units serially, 6 pipelined, 2.00x.
  StageTimes Unit{1, 1, 1};
  EXPECT_DOUBLE_EQ(serialTimeMs(Unit, 4), 12);
  EXPECT_DOUBLE_EQ(idealTimeMs(Unit, 4, 4), 6);
  EXPECT_DOUBLE_EQ(serialTimeMs(Unit, 4) / idealTimeMs(Unit, 4, 4), 2.0);
}

TEST(PipelineModel, IdealScheduleMatchesTheDocumentsTable) {
  // t=0 H2D0; t=1 K0 H2D1; t=2 D2H0 K1 H2D2; ...; t=5 D2H3.
  Timeline T = idealSchedule({1, 1, 1}, 4, 4);
  ASSERT_EQ(T.Activities.size(), 12u);
  for (unsigned Batch = 0; Batch < 4; ++Batch)
    for (unsigned Stage = 0; Stage < 3; ++Stage) {
      const Activity &A = T.Activities[Batch * 3 + Stage];
      EXPECT_EQ(A.Stream, Batch);
      EXPECT_DOUBLE_EQ(A.StartMs, Batch + Stage);
      EXPECT_DOUBLE_EQ(A.EndMs, Batch + Stage + 1);
    }
  EXPECT_EQ(T.Activities[1].Where, Engine::Kernel);
}

TEST(PipelineModel, BatchesPlusStagesMinusOneForEnoughStreams) {
  for (unsigned Batches : {1u, 2u, 8u, 16u})
    EXPECT_DOUBLE_EQ(idealTimeMs({2, 2, 2}, Batches, 3), 2.0 * (Batches + 2));
}

TEST(PipelineModel, OneStreamIsSerial) {
  StageTimes S{0.5, 1.5, 0.25};
  EXPECT_DOUBLE_EQ(idealTimeMs(S, 5, 1), serialTimeMs(S, 5));
}

TEST(PipelineModel, TwoStreamsWaitForTheirOwnPreviousBatch) {
  // Batch 2 shares stream 0 with batch 0 and starts after its D2H (t=3),
  // batch 3 after batch 1's (t=4).
  EXPECT_DOUBLE_EQ(idealTimeMs({1, 1, 1}, 4, 2), 7);
}

TEST(PipelineModel, SlowestEngineBoundsUnequalStages) {
  // sum + (B - 1) * longest.
  StageTimes S{2, 1, 1};
  EXPECT_DOUBLE_EQ(S.longestMs(), 2);
  EXPECT_DOUBLE_EQ(idealTimeMs(S, 3, 3), 4 + 2 * 2);
}

TEST(PipelineModel, ZeroStreamsScheduleNothing) {
  EXPECT_TRUE(idealSchedule({1, 1, 1}, 4, 0).empty());
}

TEST(OverlapEfficiency, EndpointsAndBeyond) {
  EXPECT_DOUBLE_EQ(overlapEfficiency(12, 6, 6), 1.0);
  EXPECT_DOUBLE_EQ(overlapEfficiency(12, 6, 12), 0.0);
  EXPECT_DOUBLE_EQ(overlapEfficiency(12, 6, 9), 0.5);
  EXPECT_DOUBLE_EQ(overlapEfficiency(12, 6, 18), -1.0);
  // Kernel tails overlapping the next kernel can beat the model.
  EXPECT_GT(overlapEfficiency(12, 6, 5.8), 1.0);
}

TEST(OverlapEfficiency, UndefinedWithoutRoomToOverlap) {
  // One batch: serial and ideal coincide.
  StageTimes S{1, 1, 1};
  EXPECT_TRUE(std::isnan(
      overlapEfficiency(serialTimeMs(S, 1), idealTimeMs(S, 1, 4), 3)));
}

} // namespace
