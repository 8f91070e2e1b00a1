//===- FormatTest.cpp - printf-style formatting into std::string ----------===//

#include "Format.h"

#include <gtest/gtest.h>

using namespace cuda_async_verify;

namespace {

TEST(Format, LikePrintf) {
  EXPECT_EQ(format("%.2fx of %s", 1.944, "malloc"), "1.94x of malloc");
  EXPECT_EQ(format("%.0f%%", 96.4), "96%");
  EXPECT_EQ(format("%s", ""), "");
}

TEST(Format, NoLengthLimit) {
  std::string Long(5000, 'x');
  EXPECT_EQ(format("<%s>", Long.c_str()), "<" + Long + ">");
}

} // namespace
