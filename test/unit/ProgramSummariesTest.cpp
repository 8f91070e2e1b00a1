//===- ProgramSummariesTest.cpp - Summaries across translation units ------===//

#include "summaries/ProgramSummaries.h"
#include "analysis/provenance/ProvenanceAnalysis.h"
#include "summaries/ProgramQueries.h"
#include "summaries/Summarize.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;
using namespace clang::ast_matchers;

namespace {

const char *Declarations = R"(
  typedef unsigned long size_t;
  extern "C" {
  void *malloc(size_t);
  int cudaMallocHost(void **, size_t);
  }
  struct Grid { float *cells; };
  float *load(size_t n);
  void fill(Grid &g);
  void consume(float *p);
)";

std::unique_ptr<clang::ASTUnit> parse(llvm::StringRef Code,
                                      llvm::StringRef File) {
  return clang::tooling::buildASTFromCodeWithArgs(
      std::string(Declarations) + Code.str(), {"-std=c++17"}, File);
}

template <class T, class M>
const T *first(const M &Matcher, clang::ASTContext &Ctx) {
  return selectFirst<T>("d", match(Matcher.bind("d"), Ctx));
}

class ProgramSummariesTest : public ::testing::Test {
protected:
  void TearDown() override { setProgramSummaries(nullptr, false); }

  /// The summary of \p Code as the store keeps it.
  llvm::json::Object summarize(llvm::StringRef Code, llvm::StringRef File) {
    std::unique_ptr<clang::ASTUnit> AST = parse(Code, File);
    EXPECT_TRUE(AST);
    return summarizeTranslationUnit(AST->getASTContext());
  }

  std::shared_ptr<ProgramSummaries>
  program(std::vector<llvm::json::Object> Units, bool EveryCaller) {
    llvm::Expected<std::shared_ptr<ProgramSummaries>> P =
        ProgramSummaries::fromUnits(std::move(Units), EveryCaller);
    EXPECT_TRUE(bool(P)) << llvm::toString(P.takeError());
    // Through the document and back: what another process reads.
    llvm::Expected<std::shared_ptr<ProgramSummaries>> Read =
        ProgramSummaries::parse(llvm::formatv("{0}", (*P)->toJSON()).str(),
                                "store");
    EXPECT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
    return *Read;
  }
};

const char *Library = R"(
  float *load(size_t n) { return (float *)malloc(n); }
  void fill(Grid &g) { cudaMallocHost((void **)&g.cells, 64); }
  void consume(float *p) {}
)";

TEST_F(ProgramSummariesTest, FunctionsAndFieldsOfOtherUnits) {
  setProgramSummaries(program({summarize(Library, "/p/lib.cpp")}, false),
                      /*FromDriver=*/true);
  std::unique_ptr<clang::ASTUnit> User = parse(R"(
    void use() { float *m = load(16); Grid g; fill(g); consume(m); }
  )",
                                               "/p/user.cpp");
  clang::ASTContext &Ctx = User->getASTContext();
  ProvenanceAnalysis Analysis(Ctx);

  const FunctionSummary *Load = Analysis.summary(
      first<clang::FunctionDecl>(functionDecl(hasName("load")), Ctx));
  ASSERT_TRUE(Load);
  ASSERT_TRUE(Load->Returns.isKnown());
  EXPECT_EQ(Load->Returns.kind(), MemoryKind::Pageable);
  const auto *Origin =
      Load->Returns.origins().front().dyn_cast<const ExternalOrigin *>();
  ASSERT_TRUE(Origin);
  EXPECT_EQ(Origin->File, "/p/lib.cpp");
  EXPECT_EQ(Origin->Note, "pageable memory allocated here with 'malloc'");
  EXPECT_EQ(Origin->Releaser, "free");

  PointerValue Cells = Analysis.stored(
      first<clang::FieldDecl>(fieldDecl(hasName("cells")), Ctx));
  ASSERT_TRUE(Cells.isKnown());
  EXPECT_EQ(Cells.kind(), MemoryKind::Pinned);
  // Known, a call of it does what its summary says: it cannot register
  // what it is given.
  const FunctionSummary *Consume = Analysis.summary(
      first<clang::FunctionDecl>(functionDecl(hasName("consume")), Ctx));
  ASSERT_TRUE(Consume);
  EXPECT_FALSE(llvm::any_of(Consume->RegistersParam,
                            [](const auto &R) { return R.has_value(); }));
}

TEST_F(ProgramSummariesTest, ParametersTakeEveryCallOfAWholeProgram) {
  llvm::json::Object Caller = summarize(R"(
    void use() { consume((float *)malloc(4)); }
  )",
                                        "/p/caller.cpp");
  auto ConsumeParam = [&](bool EveryCaller,
                          std::vector<llvm::json::Object> Others) {
    Others.push_back(summarize(Library, "/p/lib.cpp"));
    setProgramSummaries(program(std::move(Others), EveryCaller), true);
    std::unique_ptr<clang::ASTUnit> Lib = parse(Library, "/p/lib.cpp");
    clang::ASTContext &Ctx = Lib->getASTContext();
    ProvenanceAnalysis Analysis(Ctx);
    return Analysis.parameter(first<clang::ParmVarDecl>(
        parmVarDecl(hasName("p"), hasAncestor(functionDecl(hasName("consume"),
                                                           isDefinition()))),
        Ctx));
  };
  PointerValue Whole = ConsumeParam(true, {llvm::json::Object(Caller)});
  ASSERT_TRUE(Whole.isKnown());
  EXPECT_EQ(Whole.kind(), MemoryKind::Pageable);
  // Files named together need not hold every call.
  EXPECT_FALSE(ConsumeParam(false, {llvm::json::Object(Caller)}).isKnown());
  // A unit that takes its address has callers nobody lists.
  llvm::json::Object Pointer = summarize(R"(
    void (*keep)(float *) = consume;
  )",
                                         "/p/pointer.cpp");
  EXPECT_FALSE(
      ConsumeParam(true, {llvm::json::Object(Caller), std::move(Pointer)})
          .isKnown());
  // A pinned caller beside the pageable one: they disagree.
  llvm::json::Object Pinned = summarize(R"(
    void other() { float *q; cudaMallocHost((void **)&q, 4); consume(q); }
  )",
                                        "/p/pinned.cpp");
  EXPECT_FALSE(
      ConsumeParam(true, {llvm::json::Object(Caller), std::move(Pinned)})
          .isKnown());
}

TEST_F(ProgramSummariesTest, AUnitDrawsOnTheOthersNotOnItself) {
  // A stale summary of this very file (a store from an earlier run) must not
  // override what its body says now.
  llvm::json::Object Stale = summarize(R"(
    struct Grid;
    void fill(Grid &g) { cudaMallocHost((void **)&g.cells, 64); }
  )",
                                       "/p/self.cpp");
  setProgramSummaries(program({std::move(Stale)}, true), true);
  std::unique_ptr<clang::ASTUnit> Self = parse("", "/p/self.cpp");
  clang::ASTContext &Ctx = Self->getASTContext();
  ProvenanceAnalysis Analysis(Ctx);
  EXPECT_FALSE(
      Analysis.stored(first<clang::FieldDecl>(fieldDecl(hasName("cells")), Ctx))
          .isKnown());
  EXPECT_EQ(Analysis.summary(
                first<clang::FunctionDecl>(functionDecl(hasName("fill")), Ctx)),
            nullptr);
}

TEST_F(ProgramSummariesTest, AnalysisRecordsWhatItAskedOfTheProgram) {
  auto Record = [&](std::shared_ptr<const ProgramSummaries> P) {
    bool HasProgram = P != nullptr;
    setProgramSummaries(std::move(P), true);
    ProgramQueries Queries;
    ProgramQueries &Q = Queries;
    Queries.setUnit("/p/user.cpp");
    recordProgramQueries(&Queries);
    std::unique_ptr<clang::ASTUnit> User = parse(R"(
      void use() { float *m = load(16); Grid g; fill(g); }
    )",
                                                 "/p/user.cpp");
    clang::ASTContext &Ctx = User->getASTContext();
    ProvenanceAnalysis Analysis(Ctx);
    // An answer is recorded where a value made from it is read: what load
    // returns, what the field holds, read as a check reads them.
    std::optional<unsigned> Load = Analysis.returnAnswer(
        first<clang::FunctionDecl>(functionDecl(hasName("load")), Ctx));
    EXPECT_TRUE(Load);
    if (Load)
      (void)PointerValue::unknown().madeFrom({*Load}).isKnown();
    PointerValue Cells = Analysis.stored(
        first<clang::FieldDecl>(fieldDecl(hasName("cells")), Ctx));
    size_t Before = Q.size();
    (void)Cells.isKnown();
    EXPECT_EQ(Q.size(), Before + (HasProgram ? 1 : 0)) << "taken, then read";
    recordProgramQueries(nullptr);
    return Queries;
  };
  std::shared_ptr<ProgramSummaries> Lib =
      program({summarize(Library, "/p/lib.cpp")}, false);
  ProgramQueries Asked = Record(Lib);
  EXPECT_TRUE(Asked.holdIn(Lib.get()));
  // Through JSON, as the cache and the worker protocol carry it.
  llvm::Expected<ProgramQueries> Read =
      ProgramQueries::parse(llvm::formatv("{0}", Asked.toJSON()).str());
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  EXPECT_TRUE(Read->holdIn(Lib.get()));
  EXPECT_EQ(Read->size(), Asked.size());
  // A unit that tells nothing of what was asked changes no answer.
  EXPECT_TRUE(Asked.holdIn(program({summarize(Library, "/p/lib.cpp"),
                                    summarize("void other() {}", "/p/o.cpp")},
                                   false)
                               .get()));
  // load allocates pinned memory now: the answer differs.
  EXPECT_FALSE(Asked.holdIn(program({summarize(R"(
        float *load(size_t n) { void *p; cudaMallocHost(&p, n); return (float *)p; }
        void fill(Grid &g) { cudaMallocHost((void **)&g.cells, 64); }
      )",
                                               "/p/lib.cpp")},
                                    false)
                                .get()));
  // A store of this very unit answers nothing to it: as if lib were gone.
  EXPECT_FALSE(Asked.holdIn(nullptr));
  EXPECT_FALSE(
      Asked.holdIn(program({summarize(Library, "/p/user.cpp")}, false).get()));
  // What was asked without a store holds without one.
  ProgramQueries Alone = Record(nullptr);
  EXPECT_TRUE(Alone.holdIn(nullptr));
  EXPECT_FALSE(Alone.holdIn(Lib.get()));
}

TEST(ProgramQuestionTest, TextRoundTrips) {
  for (const ProgramQuestion &Q :
       {ProgramQuestion{ProgramQuestion::Kind::Installed, "", 0, ""},
        ProgramQuestion{ProgramQuestion::Kind::Returns, "c:@F@load#l#", 0, ""},
        ProgramQuestion{ProgramQuestion::Kind::OutParam, "c:@F@get#**f#", 1,
                        ""},
        ProgramQuestion{ProgramQuestion::Kind::CallEffect, "c:@F@g#*f# y", 0,
                        "o1;0pk,1,-c"},
        ProgramQuestion{ProgramQuestion::Kind::CallEffect, "c:@F@h#", 0, "o0;"},
        ProgramQuestion{ProgramQuestion::Kind::Syncs, "c:@F@s#", 0,
                        "o1;n3;s1,2;e"},
        ProgramQuestion{ProgramQuestion::Kind::Argument, "c:@F@f#*f# x", 2, ""},
        ProgramQuestion{ProgramQuestion::Kind::Registered, "/a b.cu:3:4", 0,
                        ""}}) {
    std::optional<ProgramQuestion> Back = ProgramQuestion::parse(Q.text());
    ASSERT_TRUE(Back) << Q.text();
    EXPECT_EQ(Back->What, Q.What);
    EXPECT_EQ(Back->Key, Q.Key);
    EXPECT_EQ(Back->Index, Q.Index);
    EXPECT_EQ(Back->Shape, Q.Shape);
  }
  EXPECT_FALSE(ProgramQuestion::parse("returns"));
  EXPECT_FALSE(ProgramQuestion::parse("call-effect usr"));
  EXPECT_FALSE(ProgramQuestion::parse("call-effect o2;0p usr"));
  EXPECT_FALSE(ProgramQuestion::parse("syncs o1;n2;s0 usr"));
  EXPECT_FALSE(ProgramQuestion::parse("argument x usr"));
  EXPECT_FALSE(ProgramQuestion::parse("installed yes"));
  EXPECT_FALSE(ProgramQuestion::parse("nonsense"));
}

TEST_F(ProgramSummariesTest, ShardsMergeIntoAWholeProgram) {
  using Scope = ProgramSummaries::PartScope;
  auto Shard = [](unsigned Index) {
    return Scope{false, ProgramSummaries::ShardOf{Index, 2}};
  };
  EXPECT_TRUE(ProgramSummaries::holdEveryCaller({Shard(1), Shard(2)}));
  EXPECT_FALSE(ProgramSummaries::holdEveryCaller({Shard(1)}));
  // The same shard twice is not both shards.
  EXPECT_FALSE(ProgramSummaries::holdEveryCaller({Shard(1), Shard(1)}));
  EXPECT_TRUE(ProgramSummaries::holdEveryCaller({{true, {}}, {true, {}}}));
  EXPECT_FALSE(ProgramSummaries::holdEveryCaller({{true, {}}, Shard(1)}));
  EXPECT_FALSE(ProgramSummaries::holdEveryCaller({}));
}

TEST_F(ProgramSummariesTest, StoresThatCannotBeRead) {
  auto Error = [](llvm::StringRef Text) {
    llvm::Expected<std::shared_ptr<ProgramSummaries>> P =
        ProgramSummaries::parse(Text, "s.json");
    return P ? std::string("parsed") : llvm::toString(P.takeError());
  };
  EXPECT_EQ(Error("{"), "s.json: not JSON: [1:1, byte=1]: Expected object key");
  EXPECT_EQ(Error("{}"), "s.json: not a summary store written by "
                         "cuda-async-lint (--emit-summaries)");
  EXPECT_EQ(Error(R"({"format": "cuda-async-lint-summaries", "version": 3})"),
            "s.json: summary store version 3; this cuda-async-lint reads "
            "version 2: summarize again");
  EXPECT_EQ(
      Error(R"({"format": "cuda-async-lint-summaries", "version": 2,
                "units": [{"file": "/a.cpp", "functions": [{"usr": "c:@F@f",
                "returns": {"kind": "pageable", "origins": [{}]}}]}]})"),
      "s.json: the summary of '/a.cpp': an origin lacks its file, line or "
      "column");
  EXPECT_EQ(Error(R"({"format": "cuda-async-lint-summaries", "version": 2,
                      "units": [], "shard": {"index": 3, "count": 2}})"),
            "s.json: its shard is not 'index' of 'count'");
}

} // namespace
