//===- ParseErrorsTest.cpp - clang's errors as a CI log can show them -----===//

#include "run/ParseErrors.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

TEST(ParseErrors, ShortLinesStayAsTheyAre) {
  EXPECT_EQ(capLines("a.cu:1:2: error: x\n    1 | y\n", 20),
            "a.cu:1:2: error: x\n    1 | y\n");
  EXPECT_EQ(capLines("no newline", 20), "no newline");
  EXPECT_EQ(capLines("", 20), "");
}

TEST(ParseErrors, ALongLineIsCutAndSaysSo) {
  EXPECT_EQ(capLines("0123456789abcdef\nok\n", 10),
            "0123456789 [6 bytes not shown]\nok\n");
}

TEST(ParseErrors, ACutNeverSplitsACharacter) {
  // "é" is two bytes: a cut at byte 10 would fall inside the fifth one.
  std::string Line = "aaaaaaaaa\xC3\xA9zz";
  EXPECT_EQ(capLines(Line, 10), "aaaaaaaaa [4 bytes not shown]");
}

} // namespace
