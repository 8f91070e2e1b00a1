//===- FlatSetTest.cpp - A small ordered set, shared until changed --------===//

#include "analysis/dataflow/FlatSet.h"
#include "gtest/gtest.h"
#include <vector>

using namespace cuda_async_lint;

namespace {

std::vector<int> items(const FlatSet<int> &S) { return {S.begin(), S.end()}; }

TEST(FlatSetTest, KeepsItsElementsInOrderOnce) {
  FlatSet<int> S{3, 1, 2, 3};
  EXPECT_EQ(items(S), (std::vector<int>{1, 2, 3}));
  EXPECT_FALSE(S.insert(2).second);
  EXPECT_TRUE(S.insert(0).second);
  EXPECT_EQ(S.count(0), 1u);
  EXPECT_EQ(S.count(7), 0u);
  EXPECT_EQ(S.erase(7), 0u);
  EXPECT_EQ(S.erase(1), 1u);
  EXPECT_EQ(items(S), (std::vector<int>{0, 2, 3}));
  S.clear();
  EXPECT_TRUE(S.empty());
  EXPECT_EQ(S, FlatSet<int>());
}

TEST(FlatSetTest, ACopyIsNotChangedByTheOriginal) {
  FlatSet<int> Original{1, 2, 3};
  FlatSet<int> Copy = Original;
  EXPECT_EQ(Copy, Original);
  Original.insert(4);
  Original.erase(1);
  EXPECT_EQ(items(Copy), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(items(Original), (std::vector<int>{2, 3, 4}));
  EXPECT_NE(Copy, Original);
  Copy.clear();
  EXPECT_EQ(items(Original), (std::vector<int>{2, 3, 4}));
}

TEST(FlatSetTest, ErasingWhileWalkingAnotherCopy) {
  // As an event's covered set and the pending set share their elements
  // after 'Covers = Pending', then the pending set loses what it covers.
  FlatSet<int> Pending{1, 2, 3, 4};
  FlatSet<int> Covers = Pending;
  for (int P : Covers)
    if (P % 2)
      Pending.erase(P);
  EXPECT_EQ(items(Pending), (std::vector<int>{2, 4}));
  EXPECT_EQ(items(Covers), (std::vector<int>{1, 2, 3, 4}));
  // Erasing through the iterator a shared set gives.
  FlatSet<int> Shared = Covers;
  for (auto It = Shared.begin(); It != Shared.end();)
    It = *It > 2 ? Shared.erase(It) : std::next(It);
  EXPECT_EQ(items(Shared), (std::vector<int>{1, 2}));
  EXPECT_EQ(items(Covers), (std::vector<int>{1, 2, 3, 4}));
}

TEST(FlatSetTest, OrdersAsItsElementsDo) {
  EXPECT_LT((FlatSet<int>{1, 2}), (FlatSet<int>{1, 3}));
  EXPECT_LT(FlatSet<int>(), (FlatSet<int>{0}));
  EXPECT_FALSE((FlatSet<int>{1}) < (FlatSet<int>{1}));
}

} // namespace
