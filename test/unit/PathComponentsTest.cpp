//===- PathComponentsTest.cpp - Paths compared by whole components -------===//

#include "support/PathComponents.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

TEST(PathComponents, UnderADirectoryByWholeComponents) {
  EXPECT_TRUE(isPathUnder("/src/a/b.cu", "/src/a"));
  EXPECT_TRUE(isPathUnder("/src/a/b.cu", "/src/a/"));
  EXPECT_TRUE(isPathUnder("/src/a", "/src/a"));
  EXPECT_TRUE(isPathUnder("/src/a", "/"));
  EXPECT_FALSE(isPathUnder("/src/ab/c.cu", "/src/a"));
  EXPECT_FALSE(isPathUnder("/src/a", "/src/a/b"));
  EXPECT_FALSE(isPathUnder("/src/a", ""));
}

TEST(PathComponents, EndsWithWholeComponents) {
  EXPECT_TRUE(pathEndsWith("/src/a.cu", "a.cu"));
  EXPECT_TRUE(pathEndsWith("/src/a.cu", "src/a.cu"));
  EXPECT_TRUE(pathEndsWith("/src/a.cu", "/src/a.cu"));
  EXPECT_TRUE(pathEndsWith("a.cu", "a.cu"));
  EXPECT_FALSE(pathEndsWith("/src/data.cu", "a.cu"));
  EXPECT_FALSE(pathEndsWith("/src/a.cu", "b/src/a.cu"));
  EXPECT_FALSE(pathEndsWith("/src/a.cu", ""));
}

} // namespace
