//===- TraceMetricsTest.cpp - Concurrency from synthetic intervals --------===//

#include "TraceMetrics.h"
#include "SyntheticReport.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;
using cuda_async_verify::synthetic::activity;

namespace {

TEST(TraceMetrics, CopyKernelOverlapAndEngineBusyTime) {
  Timeline T;
  T.Activities = {activity(Engine::HostToDevice, 0, 0, 2),
                  activity(Engine::Kernel, 0, 1, 3),
                  activity(Engine::DeviceToHost, 1, 2.5, 4)};
  TraceMetrics M = measureTrace(T);
  EXPECT_DOUBLE_EQ(M.SpanMs, 4);
  EXPECT_DOUBLE_EQ(M.HostToDeviceBusyMs, 2);
  EXPECT_DOUBLE_EQ(M.KernelBusyMs, 2);
  EXPECT_DOUBLE_EQ(M.DeviceToHostBusyMs, 1.5);
  // [1,2] with the H2D, [2.5,3] with the D2H.
  EXPECT_DOUBLE_EQ(M.CopyKernelOverlapMs, 1.5);
  EXPECT_DOUBLE_EQ(M.TwoEnginesMs, 1.5);
  EXPECT_DOUBLE_EQ(M.ThreeEnginesMs, 0);
  EXPECT_EQ(M.Kernels, 1u);
  EXPECT_EQ(M.CopiesByMemory[HostMemory::Pinned], 2u);
}

TEST(TraceMetrics, AllThreeEnginesAtOnce) {
  // The steady state of document 002's pipeline.
  Timeline T = idealSchedule(StageTimes{1, 1, 1}, 4, 4);
  TraceMetrics M = measureTrace(T);
  EXPECT_DOUBLE_EQ(M.SpanMs, 6);
  EXPECT_DOUBLE_EQ(M.ThreeEnginesMs, 2); // t = 2..4
  EXPECT_DOUBLE_EQ(M.TwoEnginesMs, 4);   // t = 1..5
  EXPECT_DOUBLE_EQ(M.CopyKernelOverlapMs, 4);
}

TEST(TraceMetrics, TouchingIsNotOverlapping) {
  Timeline T;
  T.Activities = {activity(Engine::HostToDevice, 0, 0, 1),
                  activity(Engine::Kernel, 0, 1, 2),
                  activity(Engine::DeviceToHost, 0, 2, 3)};
  TraceMetrics M = measureTrace(T);
  EXPECT_DOUBLE_EQ(M.CopyKernelOverlapMs, 0);
  EXPECT_DOUBLE_EQ(M.TwoEnginesMs, 0);
}

TEST(TraceMetrics, OverlappingOperationsOfOneEngineCountOnce) {
  // Two streams' kernels sharing the GPU for a while.
  Timeline T;
  T.Activities = {activity(Engine::Kernel, 0, 0, 2),
                  activity(Engine::Kernel, 1, 1, 3)};
  TraceMetrics M = measureTrace(T);
  EXPECT_DOUBLE_EQ(M.KernelBusyMs, 3);
  EXPECT_DOUBLE_EQ(M.TwoEnginesMs, 0);
  EXPECT_EQ(M.Kernels, 2u);
}

TEST(TraceMetrics, CopiesCountedByHostMemoryKind) {
  Timeline T;
  T.Activities = {activity(Engine::HostToDevice, 0, 0, 1, HostMemory::Pageable),
                  activity(Engine::DeviceToHost, 0, 1, 2, HostMemory::Pageable),
                  activity(Engine::HostToDevice, 0, 2, 3, HostMemory::Pinned)};
  TraceMetrics M = measureTrace(T);
  EXPECT_EQ(M.CopiesByMemory[HostMemory::Pageable], 2u);
  EXPECT_EQ(M.CopiesByMemory[HostMemory::Pinned], 1u);
  EXPECT_EQ(M.Kernels, 0u);
}

TEST(TraceMetrics, EmptyTrace) {
  TraceMetrics M = measureTrace({});
  EXPECT_DOUBLE_EQ(M.SpanMs, 0);
  EXPECT_TRUE(M.CopiesByMemory.empty());
}

} // namespace
