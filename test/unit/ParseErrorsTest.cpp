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

TEST(ParseErrors, ALongIncludeStackKeepsItsFirstLinesAndTheError) {
  std::string Out;
  {
    BoundedStringStream OS(Out, 1 << 20);
    for (int I = 0; I < 7; ++I)
      OS << "In file included from a.cu:1:\n";
    // Written in pieces, as clang's printer writes.
    OS << "a.cu:1:10: error: ";
    OS << "#include nested too deeply\n";
    OS << "In file included from b.cu:2:\nb.cu:3:1: error: x\n";
  }
  std::string Expected;
  for (unsigned I = 0; I < BoundedStringStream::IncludeLinesKept; ++I)
    Expected += "In file included from a.cu:1:\n";
  Expected += "[3 more 'In file included from' lines not shown]\n"
              "a.cu:1:10: error: #include nested too deeply\n"
              "In file included from b.cu:2:\nb.cu:3:1: error: x\n";
  EXPECT_EQ(Out, Expected);
}

} // namespace
