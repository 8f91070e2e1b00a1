//===- JsonReportTest.cpp - The machine-readable report -------------------===//

#include "JsonReport.h"
#include "SyntheticReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>

using namespace cuda_async_verify;
using nlohmann::json;

namespace {

TEST(JsonReport, SchemaEnvironmentAndVerdicts) {
  Report R = synthetic::sampleReport();
  std::string Text = renderJson(R);
  // The schema name comes first: readers can dispatch on it.
  EXPECT_EQ(Text.rfind("{\n  \"schema\": \"cuda-async-verify/2\"", 0), 0u);
  json J = json::parse(Text);
  EXPECT_EQ(J["environment"]["gpu"], "Test GPU <1>");
  EXPECT_EQ(J["configuration"]["batches"], 4);
  EXPECT_EQ(J["configuration"]["intensity_calibrated"], true);
  EXPECT_EQ(J["criteria"]["min_overlap_efficiency"], 0.9);
  EXPECT_EQ(J["all_passed"], true);
  ASSERT_EQ(J["checks"].size(), 2u);
  const json &Check = J["checks"][0];
  EXPECT_EQ(Check["check"], "cuda-async-pageable-copy");
  EXPECT_EQ(Check["kind"], "overlap");
  EXPECT_EQ(Check["attempts"], 1);
  EXPECT_EQ(Check["verdict"]["result"], "fix restores overlap");
  EXPECT_EQ(Check["verdict"]["passed"], true);
  EXPECT_EQ(Check["verdict"]["inconclusive"], false);
  EXPECT_EQ(J["passed"], 2);
  EXPECT_EQ(J["inconclusive"], 0);
  EXPECT_EQ(J["failed"], 0);
  // What decided it: the paired speedup and its interval.
  ASSERT_EQ(Check["speedups"].size(), 1u);
  EXPECT_EQ(Check["speedups"][0]["fixed"], "cudaMallocHost");
  EXPECT_EQ(Check["speedups"][0]["buggy"], "malloc");
  EXPECT_DOUBLE_EQ(Check["speedups"][0]["interval"]["confidence"], 0.75);
  const json &Fixed = Check["variants"][1];
  EXPECT_DOUBLE_EQ(Fixed["overlap_efficiency_interval"]["high"],
                   (12 - 6.1) / 6);
  EXPECT_EQ(Fixed["overlap_efficiency_interval"]["runs"], 3);
}

TEST(JsonReport, StagesTogetherAndBothIdeals) {
  Report R = synthetic::sampleReport();
  VariantResult &Fixed = R.Checks[0].Variants[1];
  StageProfile P(StageTimes{1, 1, 1});
  P.setTogether(AllEngines, StageTimes{1.5, 1.5, 1.5});
  Fixed.StageRuns.assign(3, P);
  Fixed.deriveOverlap(4, 4);
  json J = json::parse(renderJson(R));
  const json &V = J["checks"][0]["variants"][1];
  ASSERT_EQ(V["stages_together_ms"].size(), 1u);
  EXPECT_EQ(V["stages_together_ms"][0]["busy"], "H2D+kernel+D2H");
  EXPECT_DOUBLE_EQ(V["stages_together_ms"][0]["d2h"], 1.5);
  EXPECT_DOUBLE_EQ(V["ideal_alone_ms"], 6);
  EXPECT_GT(V["ideal_ms"].get<double>(), 6);
}

TEST(JsonReport, TimedTracedVariant) {
  json J = json::parse(renderJson(synthetic::sampleReport()));
  const json &Buggy = J["checks"][0]["variants"][0];
  EXPECT_EQ(Buggy["role"], "buggy");
  EXPECT_DOUBLE_EQ(Buggy["time_ms"]["median"], 12.0);
  EXPECT_EQ(Buggy["time_ms"]["runs"].size(), 3u);
  EXPECT_DOUBLE_EQ(Buggy["wall_ms"]["median"], 12.05);
  EXPECT_DOUBLE_EQ(Buggy["serial_ms"], 12.0);
  EXPECT_DOUBLE_EQ(Buggy["ideal_ms"], 6.0);
  EXPECT_DOUBLE_EQ(Buggy["overlap_efficiency"], 0.0);
  const json &Trace = Buggy["trace"];
  EXPECT_EQ(Trace["concurrency"]["copies_by_host_memory"]["pageable"], 2);
  EXPECT_DOUBLE_EQ(Trace["concurrency"]["copy_kernel_overlap_ms"], 0.0);
  ASSERT_EQ(Trace["activities"].size(), 3u);
  EXPECT_EQ(Trace["activities"][0]["engine"], "H2D");
  EXPECT_EQ(Trace["activities"][0]["host_memory"], "pageable");
  EXPECT_FALSE(Trace["activities"][1].contains("host_memory"));
}

TEST(JsonReport, CorrectnessVariantsAndReproductions) {
  json J = json::parse(renderJson(synthetic::sampleReport()));
  const json &Race = J["checks"][1];
  EXPECT_EQ(Race["kind"], "correctness");
  EXPECT_EQ(Race["variants"][0]["output"]["wrong"], 40);
  EXPECT_FALSE(Race["variants"][0].contains("time_ms"));
  const json &Seed = J["reproductions"][0];
  EXPECT_EQ(Seed["seed"], "002");
  EXPECT_EQ(Seed["quantities"][0]["predicted"], 12.0);
  EXPECT_TRUE(Seed["quantities"][2]["predicted"].is_null());
  EXPECT_EQ(Seed["timelines"]["pipelined (ideal schedule)"].size(), 12u);
}

TEST(JsonReport, NumbersThatCannotBeComputedAreNull) {
  Report R = synthetic::sampleReport();
  R.Checks[0].Variants[0].Efficiency = std::numeric_limits<double>::quiet_NaN();
  R.Checks[0].Variants[1].Process = ProcessOutcome{-1, 6, "SIGABRT", "boom"};
  json J = json::parse(renderJson(R));
  EXPECT_TRUE(J["checks"][0]["variants"][0]["overlap_efficiency"].is_null());
  const json &P = J["checks"][0]["variants"][1]["process"];
  EXPECT_EQ(P["signal_name"], "SIGABRT");
  EXPECT_FALSE(P.contains("exit_code"));
}

} // namespace
