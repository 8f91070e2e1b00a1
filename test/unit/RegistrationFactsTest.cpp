//===- RegistrationFactsTest.cpp - Registration facts and their join ------===//
//
// RegistrationFacts keeps the fresh facts of a function's own allocations as
// bits: it must answer and join exactly as one map of every fact does, the
// representation it replaced, which this test keeps as the specification.
//
//===----------------------------------------------------------------------===//

#include "analysis/provenance/RegistrationFacts.h"
#include "gtest/gtest.h"
#include <map>
#include <random>
#include <set>

using namespace cuda_async_lint;

namespace {

/// The specification: every fact in one map; \p MadeHere are the function's
/// own allocations, whose missing fact on one path leaves the other's.
struct MapFacts {
  std::map<const void *, RegistrationFact> Facts;
  const std::set<const void *> *MadeHere;

  void join(const MapFacts &Other) {
    const RegistrationFact Missing;
    for (auto &[Key, F] : Facts)
      if (!Other.Facts.count(Key) && !MadeHere->count(Key))
        F = RegistrationFact::join(F, Missing);
    for (const auto &[Key, F] : Other.Facts) {
      auto It = Facts.find(Key);
      if (It == Facts.end())
        Facts.insert({Key, MadeHere->count(Key)
                               ? F
                               : RegistrationFact::join(Missing, F)});
      else
        It->second = RegistrationFact::join(It->second, F);
    }
  }
};

std::map<const void *, RegistrationFact> all(const RegistrationFacts &F) {
  std::map<const void *, RegistrationFact> Out;
  const void *Last = nullptr;
  F.forEach([&](const void *Key, const RegistrationFact &Fact) {
    EXPECT_TRUE(!Last || std::less<const void *>()(Last, Key))
        << "forEach visits keys in order";
    Last = Key;
    Out.emplace(Key, Fact);
  });
  return Out;
}

class RegistrationFactsTest : public ::testing::Test {
protected:
  RegistrationFactsTest() {
    for (unsigned I = 0; I < std::size(Keys); ++I)
      if (I % 2 == 0) {
        Sites.insert(&Keys[I]);
        MadeHere.insert(&Keys[I]);
      }
  }

  char Keys[12] = {};
  // Two distinct cudaHostRegister calls, by address only.
  const clang::CallExpr *CallA = reinterpret_cast<const clang::CallExpr *>(16);
  const clang::CallExpr *CallB = reinterpret_cast<const clang::CallExpr *>(32);
  AllocationSites Sites;
  std::set<const void *> MadeHere;
};

TEST_F(RegistrationFactsTest, AFreshSiteIsFoundAndVisited) {
  RegistrationFacts F(&Sites);
  EXPECT_EQ(F.find(&Keys[0]), nullptr);
  F.set(&Keys[0], RegistrationFact::fresh());
  ASSERT_NE(F.find(&Keys[0]), nullptr);
  EXPECT_TRUE(F.find(&Keys[0])->Fresh);
  F.set(&Keys[0], RegistrationFact{Registration::Yes, CallA});
  EXPECT_EQ(F.find(&Keys[0])->R, Registration::Yes);
  EXPECT_FALSE(F.find(&Keys[0])->Fresh);
  // A fresh fact of memory another function allocated is kept by key.
  F.set(&Keys[1], RegistrationFact::fresh());
  EXPECT_TRUE(F.find(&Keys[1])->Fresh);
  EXPECT_EQ(all(F).size(), 2u);
}

TEST_F(RegistrationFactsTest, ALoopThatAllocatesAndRegistersStaysRegistered) {
  // The loop head: not allocated yet on entry; allocated and registered on
  // the back edge.
  RegistrationFacts Entry(&Sites), Back(&Sites);
  Back.set(&Keys[0], RegistrationFact{Registration::Yes, CallA});
  Entry.join(Back);
  EXPECT_EQ(Entry.find(&Keys[0])->R, Registration::Yes);
  // Just allocated on one path, registered on the other: maybe.
  RegistrationFacts Made(&Sites);
  Made.set(&Keys[0], RegistrationFact::fresh());
  Made.join(Back);
  EXPECT_EQ(Made.find(&Keys[0])->R, Registration::Maybe);
  // Fresh on one path, not made on the other: still fresh.
  RegistrationFacts Fresh(&Sites), None(&Sites);
  Fresh.set(&Keys[2], RegistrationFact::fresh());
  None.join(Fresh);
  EXPECT_TRUE(None.find(&Keys[2])->Fresh);
  EXPECT_TRUE(None == Fresh);
}

TEST_F(RegistrationFactsTest, YesBecomesMaybeAndOnlyKeepsItsKeys) {
  RegistrationFacts F(&Sites);
  F.set(&Keys[0], RegistrationFact::fresh());
  F.set(&Keys[1], RegistrationFact{Registration::Yes, CallB});
  F.set(&Keys[2], RegistrationFact{Registration::No});
  F.yesToMaybe();
  EXPECT_TRUE(F.find(&Keys[0])->Fresh);
  EXPECT_EQ(F.find(&Keys[1])->R, Registration::Maybe);
  EXPECT_EQ(F.find(&Keys[2])->R, Registration::No);
  llvm::SmallPtrSet<const void *, 4> Keep{&Keys[0], &Keys[1], &Keys[5]};
  RegistrationFacts Part = F.only(Keep);
  EXPECT_EQ(all(Part).size(), 2u);
  EXPECT_TRUE(Part.find(&Keys[0])->Fresh);
  EXPECT_EQ(Part.find(&Keys[2]), nullptr);
}

// Random states joined in random orders answer as the map does.
TEST_F(RegistrationFactsTest, JoinsAsOneMapOfEveryFact) {
  std::mt19937 Random(29);
  const RegistrationFact Choices[] = {
      RegistrationFact::fresh(),    {Registration::No},
      {Registration::Yes, CallA},   {Registration::Yes, CallB},
      {Registration::Yes, nullptr}, {Registration::Maybe},
  };
  auto RandomPair = [&] {
    RegistrationFacts Bits(&Sites);
    MapFacts Map{{}, &MadeHere};
    unsigned Sets = Random() % 8;
    for (unsigned I = 0; I < Sets; ++I) {
      const void *Key = &Keys[Random() % std::size(Keys)];
      RegistrationFact Fact = Choices[Random() % std::size(Choices)];
      Bits.set(Key, Fact);
      Map.Facts.insert_or_assign(Key, Fact);
    }
    return std::make_pair(std::move(Bits), std::move(Map));
  };
  for (unsigned Round = 0; Round < 2000; ++Round) {
    auto [Bits, Map] = RandomPair();
    unsigned Joins = 1 + Random() % 3;
    for (unsigned J = 0; J < Joins; ++J) {
      auto [OtherBits, OtherMap] = RandomPair();
      RegistrationFacts Before = Bits;
      Bits.join(OtherBits);
      Map.join(OtherMap);
      ASSERT_EQ(all(Bits), Map.Facts) << "round " << Round << ", join " << J;
      for (const char &Key : Keys) {
        auto It = Map.Facts.find(&Key);
        const RegistrationFact *Found = Bits.find(&Key);
        ASSERT_EQ(Found != nullptr, It != Map.Facts.end());
        if (Found)
          ASSERT_EQ(*Found, It->second);
      }
      // Equal facts compare equal, whichever way they were made.
      RegistrationFacts Rebuilt(&Sites);
      for (const auto &[Key, Fact] : Map.Facts)
        Rebuilt.set(Key, Fact);
      ASSERT_TRUE(Rebuilt == Bits);
      ASSERT_EQ(Before == Bits, all(Before) == Map.Facts);
    }
  }
}

} // namespace
