//===- OptionsTest.cpp - cuda-async-verify's command line -----------------===//

#include "Options.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;

namespace {

ParseResult parse(std::vector<std::string> Args) { return parseOptions(Args); }

TEST(Options, Defaults) {
  ParseResult R = parse({});
  ASSERT_EQ(R.Error, "");
  const Options &O = R.Parsed;
  EXPECT_EQ(O.BatchBytes, 32u << 20);
  EXPECT_EQ(O.Batches, 8u);
  EXPECT_EQ(O.Streams, 4u);
  EXPECT_EQ(O.Warmup, 2u);
  EXPECT_EQ(O.Repeats, 20u);
  EXPECT_FALSE(O.Intensity.has_value());
  EXPECT_EQ(O.Checks, verifiedChecks());
  EXPECT_TRUE(O.Trace);
  EXPECT_TRUE(O.Reproductions);
  EXPECT_DOUBLE_EQ(O.Bar.MinEfficiency, 0.90);
  EXPECT_DOUBLE_EQ(O.Bar.MinSpeedup, 1.10);
}

TEST(Options, OneSideOfTheVariants) {
  EXPECT_FALSE(parse({}).Parsed.OnlyRole.has_value());
  EXPECT_FALSE(parse({"--variants", "all"}).Parsed.OnlyRole.has_value());
  EXPECT_EQ(parse({"--variants=buggy"}).Parsed.OnlyRole, Role::Buggy);
  EXPECT_EQ(parse({"--variants", "fixed"}).Parsed.OnlyRole, Role::Fixed);
  EXPECT_EQ(parse({"--variants", "both"}).Error,
            "option '--variants' takes all, buggy or fixed, not 'both'");
}

TEST(Options, BothSpellingsOfValues) {
  ParseResult R =
      parse({"--batches=4", "--streams", "3", "--batch-mib=2", "--intensity",
             "900", "--json", "r.json", "--timeline=t.svg", "--no-trace",
             "--min-efficiency=0.8", "--min-speedup", "1.5"});
  ASSERT_EQ(R.Error, "");
  EXPECT_EQ(R.Parsed.Batches, 4u);
  EXPECT_EQ(R.Parsed.Streams, 3u);
  EXPECT_EQ(R.Parsed.BatchBytes, 2u << 20);
  EXPECT_EQ(R.Parsed.Intensity, 900u);
  EXPECT_EQ(R.Parsed.JsonPath, "r.json");
  EXPECT_EQ(R.Parsed.TimelinePath, "t.svg");
  EXPECT_FALSE(R.Parsed.Trace);
  EXPECT_DOUBLE_EQ(R.Parsed.Bar.MinEfficiency, 0.8);
  EXPECT_DOUBLE_EQ(R.Parsed.Bar.MinSpeedup, 1.5);
  EXPECT_FALSE(parse({"--intensity=auto"}).Parsed.Intensity.has_value());
}

TEST(Options, ChecksAreKnownIdsKeptInOrderOnce) {
  ParseResult R = parse({"--checks=cuda-async-sync-in-loop,"
                         "cuda-async-pageable-copy,cuda-async-sync-in-loop"});
  ASSERT_EQ(R.Error, "");
  EXPECT_EQ(R.Parsed.Checks,
            (std::vector<std::string>{"cuda-async-sync-in-loop",
                                      "cuda-async-pageable-copy"}));
  EXPECT_EQ(parse({"--checks=all"}).Parsed.Checks, verifiedChecks());
  EXPECT_EQ(parse({"--checks=cuda-async-pageable"}).Error,
            "unknown check 'cuda-async-pageable' in --checks (see "
            "--list-checks)");
  // The release-leak check has no runtime pair.
  EXPECT_NE(parse({"--checks=cuda-async-host-register-leak"}).Error, "");
}

TEST(Options, BadInputIsNamed) {
  EXPECT_EQ(parse({"--frobnicate"}).Error,
            "unknown option '--frobnicate' (see --help)");
  EXPECT_EQ(parse({"--batches"}).Error, "option '--batches' needs a value");
  EXPECT_EQ(parse({"--batches=0"}).Error,
            "invalid value '0' for --batches: expected a number from 1 to "
            "4096");
  EXPECT_EQ(parse({"--streams=-1"}).Error,
            "invalid value '-1' for --streams: expected a number from 1 to "
            "256");
  EXPECT_EQ(parse({"--intensity=lots"}).Error,
            "invalid value 'lots' for --intensity: expected 'auto' or a "
            "number from 1 to 16777216");
  EXPECT_NE(parse({"--min-efficiency=1.5"}).Error, "");
  EXPECT_NE(parse({"--min-speedup=0.9"}).Error, "");
  EXPECT_NE(parse({"--min-speedup=2x"}).Error, "");
  EXPECT_EQ(parse({"--json="}).Error,
            "option '--json' needs a non-empty value");
  EXPECT_EQ(parse({"--help=yes"}).Error, "option '--help' takes no value");
  EXPECT_EQ(parse({"report.json"}).Error,
            "unknown option 'report.json' (see --help)");
}

TEST(Options, InformationalFlags) {
  EXPECT_TRUE(parse({"-h"}).Parsed.Help);
  EXPECT_TRUE(parse({"--version"}).Parsed.Version);
  EXPECT_TRUE(parse({"--list-checks"}).Parsed.ListChecks);
  EXPECT_FALSE(parse({"--no-reproductions"}).Parsed.Reproductions);
}

} // namespace
