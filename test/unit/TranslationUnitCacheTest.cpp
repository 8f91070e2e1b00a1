//===- TranslationUnitCacheTest.cpp - Entries a summary store carries -----===//

#include "run/TranslationUnitCache.h"
#include "run/SummaryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

/// A source file in a fresh directory, and the parse inputs of a unit that
/// read it.
struct Source {
  llvm::SmallString<128> Dir, Path;
  Source() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tu-cache", Dir));
    Path = Dir;
    Path += "/a.cu";
    write("int a;\n");
  }
  ~Source() { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  ParseInputs inputs(llvm::StringRef Text) const {
    return {{std::string(Path), fileContentHash(Text)}};
  }
};

TEST(TranslationUnitCacheTest, APreloadedEntryStandsWhileItsInputsDo) {
  Source S;
  std::optional<llvm::json::Object> Entry =
      TranslationUnitCache::entry("k1", "result", S.inputs("int a;\n"));
  ASSERT_TRUE(Entry);
  TranslationUnitCache Cache = TranslationUnitCache::inMemory("results");
  Cache.preload(std::move(*Entry));
  ParseInputs Inputs;
  std::optional<llvm::json::Value> Hit = Cache.lookup(
      "k1", [](const llvm::json::Value &) { return true; }, &Inputs);
  ASSERT_TRUE(Hit);
  EXPECT_EQ(Hit->getAsString(), "result");
  // The files it was made from, for a store to carry on.
  EXPECT_EQ(Inputs, S.inputs("int a;\n"));
  EXPECT_EQ(Cache.preloadedHits(), 1u);
  // Another key, or the same one once the file changed: a miss.
  EXPECT_FALSE(Cache.lookup("k2"));
  TranslationUnitCache Later = TranslationUnitCache::inMemory("results");
  Later.preload(
      *TranslationUnitCache::entry("k1", "result", S.inputs("int a;\n")));
  S.write("int b;\n");
  EXPECT_FALSE(Later.lookup("k1"));
  EXPECT_EQ(Later.misses(), 1u);
}

TEST(TranslationUnitCacheTest, NoEntryOfAParseThatDidNotKeepItsBytes) {
  EXPECT_FALSE(TranslationUnitCache::entry("k", "v", {{"/x.h", ""}}));
}

TEST(TranslationUnitCacheTest, AStoreCarriesItsResultsThroughAMerge) {
  Source S;
  llvm::SmallString<128> One(S.Dir), Two(S.Dir), Merged(S.Dir);
  One += "/one.json";
  Two += "/two.json";
  Merged += "/merged.json";
  auto Store = [&](llvm::StringRef Key) {
    SummaryStore Out{ProgramSummaries::empty(false), {}};
    Out.Results.push_back(
        *TranslationUnitCache::entry(Key, "r", S.inputs("int a;\n")));
    return Out;
  };
  ASSERT_FALSE(bool(writeSummaryStore(Store("k1"), One)));
  // The same unit in two stores (overlapping shards): its first result.
  ASSERT_FALSE(bool(writeSummaryStore(Store("k1"), Two)));
  llvm::Expected<SummaryStore> Both =
      mergeSummaryStores({std::string(One), std::string(Two)});
  ASSERT_TRUE(bool(Both)) << llvm::toString(Both.takeError());
  ASSERT_EQ(Both->Results.size(), 1u);
  ASSERT_FALSE(bool(writeSummaryStore(std::move(*Both), Merged)));
  llvm::Expected<SummaryStore> Read = readSummaryStore(Merged);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ASSERT_EQ(Read->Results.size(), 1u);
  EXPECT_EQ(Read->Results.front().getString("key"), "k1");
}

} // namespace
