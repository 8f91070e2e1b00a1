//===- NolintTest.cpp - NOLINT comments, as clang-tidy reads them ---------===//

#include "FindingCollector.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

constexpr llvm::StringLiteral Id = "cuda-async-pageable-copy";

unsigned offsetOfLine(llvm::StringRef Buffer, unsigned Line) {
  unsigned Offset = 0;
  for (unsigned L = 1; L < Line; ++L)
    Offset = Buffer.find('\n', Offset) + 1;
  return Offset;
}

bool suppressed(llvm::StringRef Buffer, unsigned Line) {
  return isSuppressedByNolint(Buffer, offsetOfLine(Buffer, Line), Id);
}

TEST(Nolint, SameLine) {
  EXPECT_TRUE(suppressed("copy(); // NOLINT\n", 1));
  EXPECT_TRUE(suppressed("copy(); // NOLINT(cuda-async-*)\n", 1));
  EXPECT_TRUE(
      suppressed("copy(); // NOLINT(a, cuda-async-pageable-copy)\n", 1));
  EXPECT_FALSE(suppressed("copy(); // NOLINT(other-check)\n", 1));
  EXPECT_FALSE(suppressed("copy();\n", 1));
}

TEST(Nolint, NextLine) {
  EXPECT_TRUE(suppressed("// NOLINTNEXTLINE\ncopy();\n", 2));
  EXPECT_FALSE(suppressed("// NOLINTNEXTLINE\n\ncopy();\n", 3));
  EXPECT_FALSE(suppressed("// NOLINTNEXTLINE(other)\ncopy();\n", 2));
  // NOLINTNEXTLINE does not suppress its own line.
  EXPECT_FALSE(suppressed("copy(); // NOLINTNEXTLINE\n", 1));
}

TEST(Nolint, Blocks) {
  llvm::StringRef Code = "// NOLINTBEGIN(cuda-async-*)\n"
                         "copy();\n"
                         "// NOLINTEND(cuda-async-*)\n"
                         "copy();\n";
  EXPECT_TRUE(suppressed(Code, 2));
  EXPECT_FALSE(suppressed(Code, 4));
}

} // namespace
