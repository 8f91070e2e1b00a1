//===- TimelineSvgTest.cpp - Buggy vs fixed timelines ---------------------===//

#include "TimelineSvg.h"
#include "SyntheticReport.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;

namespace {

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos;
       At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

TEST(TimelineSvg, OneBarPerActivityAndOneSectionPerCheck) {
  std::string Svg = renderTimelineSvg(synthetic::sampleReport());
  EXPECT_EQ(Svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(Svg.find("</svg>\n"), std::string::npos);
  // Background, a legend swatch per stream (the schedule uses 4), 3 buggy +
  // 4 fixed + 12 of the reproduction's schedule.
  EXPECT_EQ(count(Svg, "<rect"), 1u + 4 + 3 + 4 + 12);
  // Only the bars carry a tooltip.
  EXPECT_EQ(count(Svg, "</rect>"), 3u + 4 + 12);
  EXPECT_NE(Svg.find(">stream 3</text>"), std::string::npos);
  EXPECT_EQ(Svg.find(">stream 4</text>"), std::string::npos);
  EXPECT_NE(Svg.find(">cuda-async-pageable-copy</text>"), std::string::npos);
  EXPECT_NE(Svg.find(">seed 002: 4 batches x 3 stages</text>"),
            std::string::npos);
  // The correctness check has no trace, so no section.
  EXPECT_EQ(Svg.find("cuda-async-unsynchronized-access"), std::string::npos);
}

TEST(TimelineSvg, PageableCopiesAreOutlinedAndTextIsEscaped) {
  std::string Svg = renderTimelineSvg(synthetic::sampleReport());
  EXPECT_EQ(count(Svg, "stroke=\"#d00\""), 2u);
  EXPECT_NE(Svg.find("Test GPU &lt;1&gt;"), std::string::npos);
  EXPECT_EQ(Svg.find("Test GPU <1>"), std::string::npos);
  EXPECT_NE(Svg.find("<title>H2D, stream 0: 0.00 to 1.00 ms, 1048576 bytes, "
                     "pageable host memory</title>"),
            std::string::npos);
}

TEST(TimelineSvg, BarsScaleToTheSectionsLongestRun) {
  std::string Svg = renderTimelineSvg(synthetic::sampleReport());
  // Both runs of the check span 3 ms over 920 px: a 1 ms bar is 306.67 px.
  EXPECT_NE(Svg.find("width=\"306.67\""), std::string::npos);
}

TEST(TimelineSvg, EscapeXml) {
  EXPECT_EQ(escapeXml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

} // namespace
