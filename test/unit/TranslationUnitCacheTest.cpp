//===- TranslationUnitCacheTest.cpp - Entries a summary store carries -----===//

#include "run/TranslationUnitCache.h"
#include "run/SummaryStore.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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
  llvm::Expected<MergedStores> Both =
      mergeSummaryStores({std::string(One), std::string(Two)}, Merged);
  ASSERT_TRUE(bool(Both)) << llvm::toString(Both.takeError());
  ASSERT_EQ(Both->Results, 1u);
  llvm::Expected<SummaryStore> Read = readSummaryStore(Merged);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ASSERT_EQ(Read->Results.size(), 1u);
  EXPECT_EQ(Read->Results.front().getString("key"), "k1");
}

TEST(TranslationUnitCacheTest, ShardStoresMergeIntoTheWholeProgram) {
  Source S;
  auto Path = [&](llvm::StringRef Name) {
    llvm::SmallString<128> P(S.Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  };
  auto Shard = [&](llvm::StringRef File, unsigned Index) {
    std::shared_ptr<ProgramSummaries> P = ProgramSummaries::empty(false);
    EXPECT_FALSE(bool(P->add(llvm::json::Object{
        {"file", File}, {"functions", llvm::json::Array{}}})));
    P->setShard({Index, 2});
    std::string Out = Path(llvm::sys::path::filename(File).str() + ".json");
    EXPECT_FALSE(bool(writeSummaryStore({P, {}}, Out)));
    return Out;
  };
  std::string One = Shard("/p/a.cpp", 1), Two = Shard("/p/b.cpp", 2);
  auto Merge = [&](std::vector<std::string> Parts) {
    llvm::Expected<MergedStores> M = mergeSummaryStores(Parts, Path("m.json"));
    EXPECT_TRUE(bool(M)) << llvm::toString(M.takeError());
    llvm::Expected<SummaryStore> Read = readSummaryStore(Path("m.json"));
    EXPECT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
    return std::make_pair(*M, Read->Program);
  };
  auto [Both, BothRead] = Merge({One, Two});
  EXPECT_TRUE(Both.EveryCaller);
  EXPECT_TRUE(BothRead->holdsEveryCaller());
  EXPECT_EQ(BothRead->files(),
            (std::vector<std::string>{"/p/a.cpp", "/p/b.cpp"}));
  EXPECT_EQ(Both.Units, 2u);
  // The same shard twice: one unit, and not the whole program.
  auto [Twice, TwiceRead] = Merge({One, One});
  EXPECT_FALSE(TwiceRead->holdsEveryCaller());
  EXPECT_EQ(TwiceRead->files(), (std::vector<std::string>{"/p/a.cpp"}));
  EXPECT_EQ(Twice.Units, 1u);
  // A store that cannot be read: an error naming it, and no merged store.
  std::string Missing = Path("missing.json");
  llvm::Expected<MergedStores> Bad =
      mergeSummaryStores({One, Missing}, Path("bad.json"));
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("missing.json"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(Path("bad.json")));
}

} // namespace
