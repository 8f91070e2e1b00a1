//===- TextReportTest.cpp - The human table -------------------------------===//

#include "TextReport.h"
#include "SyntheticReport.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;

namespace {

TEST(TextReport, HeaderTablesVerdictsAndTally) {
  std::string Text = renderText(synthetic::sampleReport());
  EXPECT_NE(Text.find("GPU: Test GPU <1> (compute 9.0, 0 copy engines), "
                      "driver 580.1, CUDA runtime 13.0, CUPTI API 130001\n"),
            std::string::npos);
  EXPECT_NE(Text.find("pipeline: 4 batches of 16.0 MiB over 4 streams, kernel "
                      "intensity 1800 (calibrated: kernel time = H2D time), "
                      "2 warm-up + 3 timed runs\n"),
            std::string::npos);
  EXPECT_NE(Text.find("\ncuda-async-pageable-copy\n"), std::string::npos);
  EXPECT_NE(Text.find("  => PASS: fix restores overlap: cudaMallocHost: 97% "
                      "efficiency, 1.94x faster than malloc\n"),
            std::string::npos);
  EXPECT_NE(Text.find("\ncuda-async-unsynchronized-access (host reads D2H "
                      "results before synchronizing)\n"),
            std::string::npos);
  EXPECT_NE(Text.find("40 of 100 values stale"), std::string::npos);
  EXPECT_NE(Text.find("\n2 of 2 verdicts passed\n"), std::string::npos);
}

TEST(TextReport, VariantRowCarriesTimesEfficiencyAndCopies) {
  std::string Text = renderText(synthetic::sampleReport());
  size_t Row = Text.find("  cudaMallocHost ");
  ASSERT_NE(Row, std::string::npos);
  std::string Line = Text.substr(Row, Text.find('\n', Row) - Row);
  EXPECT_NE(Line.find("fixed"), std::string::npos);
  EXPECT_NE(Line.find("6.200 (6.100-6.300)"), std::string::npos);
  EXPECT_NE(Line.find("   6.250 "), std::string::npos); // wall time
  EXPECT_NE(Line.find("1.000/1.000/1.000"), std::string::npos);
  EXPECT_NE(Line.find("97%"), std::string::npos);
  EXPECT_NE(Line.find("3 pinned"), std::string::npos);
  EXPECT_NE(Line.find("1.000 ms"), std::string::npos); // copy||kernel
}

TEST(TextReport, ReproducedQuantities) {
  std::string Text = renderText(synthetic::sampleReport());
  EXPECT_NE(Text.find("\nseed 002: 4 batches x 3 stages\n"), std::string::npos);
  EXPECT_NE(Text.find("sequential total"), std::string::npos);
  EXPECT_NE(Text.find("12.000 units"), std::string::npos);
  EXPECT_NE(Text.find("2.00x"), std::string::npos);
  EXPECT_NE(Text.find("  => predicted 12 -> 6 units\n"), std::string::npos);
}

TEST(TextReport, RepeatedMeasurementIsSaid) {
  Report R = synthetic::sampleReport();
  R.Checks[0].Attempts = 2;
  EXPECT_NE(renderText(R).find("\ncuda-async-pageable-copy [measured 2 times: "
                               "the first measurement could not decide; "
                               "the runs of all of them are shown]\n"),
            std::string::npos);
}

TEST(TextReport, FailedVerdictSaysFail) {
  Report R = synthetic::sampleReport();
  R.Checks[0].Outcome = judge(synthetic::pageableCheck({12}, {11}), R.Bar);
  std::string Text = renderText(R);
  EXPECT_NE(Text.find("  => FAIL: fix below efficiency target"),
            std::string::npos);
  EXPECT_NE(Text.find("\n1 of 2 verdicts passed\n"), std::string::npos);
}

TEST(TextReport, InconclusiveVerdictIsNeitherPassNorFail) {
  Report R = synthetic::sampleReport();
  R.Checks[0] = synthetic::pageableCheck({12, 12, 12}, {6.5, 7, 9});
  R.Checks[0].Outcome = judge(R.Checks[0], R.Bar);
  std::string Text = renderText(R);
  EXPECT_NE(Text.find("  => INCONCLUSIVE: inconclusive on this machine: "),
            std::string::npos);
  EXPECT_NE(Text.find("\n1 of 2 verdicts passed, 1 inconclusive on this "
                      "machine\n"),
            std::string::npos);
  EXPECT_NE(Text.find("  cudaMallocHost: efficiency 83% (75% interval "
                      "50%-92%, 3 runs)\n"),
            std::string::npos);
  EXPECT_NE(Text.find("  cudaMallocHost: 1.71x as fast as malloc (75% "
                      "interval 1.33x-1.85x)\n"),
            std::string::npos);
}

} // namespace
