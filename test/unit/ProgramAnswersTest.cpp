//===- ProgramAnswersTest.cpp - Answers recorded where they are read ------===//

#include "analysis/provenance/ProvenanceLattice.h"
#include "summaries/ProgramQueries.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;

namespace {

/// The answers read while it lives.
class Reads {
public:
  Reads() { setProgramAnswerHook(&Reads::hook); }
  ~Reads() { setProgramAnswerHook(nullptr); }
  std::vector<unsigned> take() {
    std::vector<unsigned> Out = std::move(Seen);
    Seen.clear();
    return Out;
  }

private:
  static void hook(llvm::ArrayRef<unsigned> Numbers) {
    Seen.insert(Seen.end(), Numbers.begin(), Numbers.end());
  }
  static std::vector<unsigned> Seen;
};
std::vector<unsigned> Reads::Seen;

// Numbers as ProgramQueries::pending makes them: odd for a join that only
// grows.
constexpr unsigned Grows = 3, Fixed = 4;

TEST(ProgramAnswersTest, AValueIsMadeFromTheAnswersItJoins) {
  Reads R;
  PointerValue G = PointerValue::unknown().madeFrom({Grows});
  PointerValue F = PointerValue::unknown().madeFrom({Fixed});
  PointerValue J = PointerValue::join(G, F);
  EXPECT_EQ(J.answers(), llvm::ArrayRef<unsigned>({Grows, Fixed}));
  // The dataflow's bookkeeping reads nothing; joins and comparisons do not.
  (void)J.peekTag();
  (void)J.peekOrigins();
  EXPECT_NE(J, PointerValue::unknown());
  EXPECT_TRUE(R.take().empty());
  // A reader reads every answer.
  EXPECT_FALSE(J.isKnown());
  EXPECT_EQ(R.take(), (std::vector<unsigned>{Grows, Fixed}));
}

TEST(ProgramAnswersTest, AnUnknownValueStaysUnknownAsJoinsGrow) {
  Reads R;
  PointerValue J =
      PointerValue::join(PointerValue::unknown().madeFrom({Grows}),
                         PointerValue::unknown().madeFrom({Fixed}));
  // Unknown: the whole program's join leaves it so; only the other answer
  // is read.
  EXPECT_FALSE(J.isKnownAsJoinsGrow());
  EXPECT_EQ(R.take(), (std::vector<unsigned>{Fixed}));
  // Unset may grow into a known value: everything is read.
  EXPECT_FALSE(PointerValue::unset().madeFrom({Grows}).isKnownAsJoinsGrow());
  EXPECT_EQ(R.take(), (std::vector<unsigned>{Grows}));
  // Nothing stored yet, taken as unknown: no longer a join that only grows.
  PointerValue Chosen =
      PointerValue::unknownForUnset(PointerValue::unset().madeFrom({Grows}));
  EXPECT_FALSE(Chosen.isKnownAsJoinsGrow());
  EXPECT_EQ(R.take(), (std::vector<unsigned>{Grows & ~1u}));
}

TEST(ProgramAnswersTest, PendingAnswersAreRecordedWhenRead) {
  ProgramQueries Q;
  Q.setUnit("/p/u.cpp");
  unsigned Field = Q.pending("field c:@S@F@FI@p", "unknown", /*Grows=*/true);
  unsigned Returns = Q.pending("returns c:@F@make#", "none", /*Grows=*/false);
  EXPECT_EQ(Field & 1, 1u);
  EXPECT_EQ(Returns & 1, 0u);
  EXPECT_EQ(Q.pending("field c:@S@F@FI@p", "other", true), Field);
  EXPECT_EQ(Q.size(), 0u);
  recordProgramQueries(&Q);
  PointerValue::unknown().madeFrom({Returns}).isKnown();
  recordProgramQueries(nullptr);
  EXPECT_EQ(Q.size(), 1u);
  EXPECT_TRUE(Q.asked("returns c:@F@make#"));
  EXPECT_FALSE(Q.asked("field c:@S@F@FI@p"));
  // Read again: recorded once.
  Q.use({Returns, Returns});
  EXPECT_EQ(Q.size(), 1u);
}

} // namespace

// --verbose says why a unit is analysed again in words: a USR's name.
TEST(ProgramAnswersTest, AQuestionIsDescribedByTheNameItsUsrSpells) {
  EXPECT_EQ(nameOfUsr("c:@N@amgx@N@memory@F@cudaFreeHost#*v#"),
            "amgx::memory::cudaFreeHost");
  EXPECT_EQ(nameOfUsr("c:@F@send1#*f#l#*$@S@CUstream_st#"), "send1");
  EXPECT_EQ(nameOfUsr("c:@S@Reservoir@FI@cells"), "Reservoir::cells");
  EXPECT_EQ(nameOfUsr("c:kernel.cu@F@helper#"), "helper");
  EXPECT_EQ(nameOfUsr("c:@ST>1#T@Pool@F@alloc#"), "Pool::alloc");
  EXPECT_EQ(nameOfUsr("not a usr"), "not a usr");
  std::optional<ProgramQuestion> Q = ProgramQuestion::parse(
      "host-use 0 c:@N@amgx@N@memory@F@cudaFreeHost#*v#");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->describe(), "what 'amgx::memory::cudaFreeHost' does on the "
                           "host with what its parameter 0 points to");
}
