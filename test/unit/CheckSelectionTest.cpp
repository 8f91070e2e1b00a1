//===- CheckSelectionTest.cpp - --checks globs
//-----------------------------===//

#include "CheckSelection.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

TEST(CheckSelection, GlobsLaterOnesWin) {
  auto All = CheckSelection::parse("cuda-async-*");
  ASSERT_TRUE(static_cast<bool>(All));
  EXPECT_TRUE(All->isEnabled("cuda-async-pageable-copy"));
  auto None = CheckSelection::parse("cuda-async-*,-cuda-async-pageable-copy");
  ASSERT_TRUE(static_cast<bool>(None));
  EXPECT_FALSE(None->isEnabled("cuda-async-pageable-copy"));
  auto Again = CheckSelection::parse("-*, cuda-async-pageable-copy");
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->isEnabled("cuda-async-pageable-copy"));
  EXPECT_FALSE(Again->isEnabled("other-check"));
}

TEST(CheckSelection, UnknownCheckNamesAreErrors) {
  auto Typo = CheckSelection::parse("cuda-async-pagable-copy");
  ASSERT_FALSE(static_cast<bool>(Typo));
  EXPECT_NE(llvm::toString(Typo.takeError()).find("cuda-async-pagable-copy"),
            std::string::npos);
  // A glob that matches nothing is not a typo.
  EXPECT_TRUE(static_cast<bool>(CheckSelection::parse("bugprone-*")));
}

} // namespace
