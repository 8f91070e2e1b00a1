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
  Timeline T = idealSchedule(StageTimes{1, 1, 1}, 4, 4);
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
    EXPECT_DOUBLE_EQ(idealTimeMs(StageTimes{2, 2, 2}, Batches, 3),
                     2.0 * (Batches + 2));
}

TEST(PipelineModel, OneStreamIsSerial) {
  StageTimes S{0.5, 1.5, 0.25};
  EXPECT_DOUBLE_EQ(idealTimeMs(S, 5, 1), serialTimeMs(S, 5));
}

TEST(PipelineModel, TwoStreamsWaitForTheirOwnPreviousBatch) {
  // Batch 2 shares stream 0 with batch 0 and starts after its D2H (t=3),
  // batch 3 after batch 1's (t=4).
  EXPECT_DOUBLE_EQ(idealTimeMs(StageTimes{1, 1, 1}, 4, 2), 7);
}

TEST(PipelineModel, SlowestEngineBoundsUnequalStages) {
  // sum + (B - 1) * longest.
  StageTimes S{2, 1, 1};
  EXPECT_DOUBLE_EQ(S.longestMs(), 2);
  EXPECT_DOUBLE_EQ(idealTimeMs(S, 3, 3), 4 + 2 * 2);
}

TEST(PipelineModel, ZeroStreamsScheduleNothing) {
  EXPECT_TRUE(idealSchedule(StageTimes{1, 1, 1}, 4, 0).empty());
}

StageProfile slowerTogether(double Factor, bool SharedCopyEngine = false) {
  StageProfile P(StageTimes{1, 1, 1});
  P.SharedCopyEngine = SharedCopyEngine;
  for (EngineSet Set : concurrentSets(SharedCopyEngine))
    P.setTogether(Set, StageTimes{Factor, Factor, Factor});
  return P;
}

TEST(PipelineModel, StagesSlowerTogetherLengthenTheIdeal) {
  // The first H2D and the last D2H run alone (1 ms each); the four steps
  // between run two or three engines at 1.5 ms: 1 + 4 * 1.5 + 1.
  EXPECT_DOUBLE_EQ(idealTimeMs(slowerTogether(1.5), 4, 4), 8);
  // A profile that keeps its alone times gives the one-engine schedule.
  EXPECT_DOUBLE_EQ(idealTimeMs(slowerTogether(1.0), 4, 4), 6);
}

TEST(PipelineModel, AnOperationSpeedsUpWhenItsNeighbourEnds) {
  // H2D 1 ms, kernel 3 ms alone; together each runs at half speed. Batch 1's
  // H2D starts beside kernel 0 at t=1 and takes 2 ms; kernel 0 has done a
  // third of its work by t=3 and finishes alone at t=5.
  StageProfile P(StageTimes{1, 3, 0});
  P.setTogether(engineBit(Engine::HostToDevice) | engineBit(Engine::Kernel),
                StageTimes{2, 6, 0});
  Timeline T = idealSchedule(P, 2, 2);
  EXPECT_DOUBLE_EQ(T.Activities[1].StartMs, 1);
  EXPECT_DOUBLE_EQ(T.Activities[3].EndMs, 3); // batch 1's H2D
  EXPECT_DOUBLE_EQ(T.Activities[1].EndMs, 5); // batch 0's kernel
}

TEST(PipelineModel, OneCopyEngineTakesTheDirectionsInTurn) {
  // asyncEngineCount 1: no H2D runs beside a D2H.
  Timeline T = idealSchedule(slowerTogether(1.0, true), 8, 4);
  for (const Activity &A : T.Activities)
    for (const Activity &B : T.Activities)
      if (A.Where == Engine::HostToDevice && B.Where == Engine::DeviceToHost)
        EXPECT_TRUE(A.EndMs <= B.StartMs || B.EndMs <= A.StartMs);
  // Two copies per batch share one engine: 16 ms of copies at least.
  EXPECT_GE(T.spanMs(), 16);
  EXPECT_GT(T.spanMs(), idealTimeMs(slowerTogether(1.0), 8, 4));
}

TEST(StageProfile, UnmeasuredSetsFallBackToTheAloneTimes) {
  StageProfile P(StageTimes{1, 2, 3});
  EngineSet Copies =
      engineBit(Engine::HostToDevice) | engineBit(Engine::DeviceToHost);
  EXPECT_DOUBLE_EQ(P.ms(Engine::DeviceToHost, Copies), 3);
  P.setTogether(Copies, StageTimes{1.5, 0, 4});
  EXPECT_DOUBLE_EQ(P.ms(Engine::DeviceToHost, Copies), 4);
  EXPECT_DOUBLE_EQ(P.ms(Engine::HostToDevice, Copies), 1.5);
  EXPECT_EQ(engineSetName(Copies), "H2D+D2H");
  EXPECT_EQ(concurrentSets(false).size(), 4u);
  // One copy engine: the sets holding both directions cannot occur.
  EXPECT_EQ(concurrentSets(true).size(), 2u);
}

TEST(StageProfile, MedianOfRunsPerTimeMeasured) {
  std::vector<StageProfile> Runs;
  for (double X : {1.0, 3.0, 2.0}) {
    StageProfile P(StageTimes{X, X, X});
    P.setTogether(AllEngines, StageTimes{X + 1, X + 1, X + 1});
    Runs.push_back(P);
  }
  Runs.push_back(StageProfile(StageTimes{2, 2, 2})); // alone only
  StageProfile M = medianProfile(Runs);
  EXPECT_DOUBLE_EQ(M.alone().KernelMs, 2);
  ASSERT_TRUE(M.together(AllEngines));
  EXPECT_DOUBLE_EQ(M.together(AllEngines)->KernelMs, 3);
  EXPECT_FALSE(
      M.together(engineBit(Engine::Kernel) | engineBit(Engine::DeviceToHost)));
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
