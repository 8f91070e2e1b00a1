//===- CallEffectsTest.cpp - What a call of another unit's function does --===//

#include "analysis/provenance/CallEffects.h"
#include "analysis/provenance/RegistrationReads.h"
#include "analysis/sync/SyncSummary.h"
#include "summaries/ProgramQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace cuda_async_lint;
using namespace clang::ast_matchers;

namespace {

ArgumentShape pointerArgument(unsigned Param, bool Keyed) {
  return ArgumentShape{Param, /*Pointer=*/true, Keyed, /*Clobberable=*/false};
}

TEST(CallEffectsTest, ShapeTextRoundTrips) {
  CallShape Shape;
  Shape.OpaqueWithoutSummary = true;
  Shape.Args = {pointerArgument(0, true), ArgumentShape{1, false, false, true},
                ArgumentShape{std::nullopt, true, false, false}};
  EXPECT_EQ(Shape.text(), "o1;0pk,1c,-p");
  std::optional<CallShape> Back = CallShape::parse(Shape.text());
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->OpaqueWithoutSummary, true);
  EXPECT_TRUE(Back->Args == Shape.Args);
  EXPECT_TRUE(CallShape::parse("o0;"));
  EXPECT_FALSE(CallShape::parse("o2;0p"));
  EXPECT_FALSE(CallShape::parse("o1;0x"));
  EXPECT_FALSE(CallShape::parse("o1;p"));
}

TEST(CallEffectsTest, NothingKnownAndASummaryThatDoesNothingAnswerAlike) {
  // An error handler given strings nothing else names: nothing is known of
  // it, or its summary registers nothing. The call does the same.
  CallShape Strings;
  Strings.OpaqueWithoutSummary = true;
  Strings.Args = {pointerArgument(0, false), pointerArgument(1, false),
                  ArgumentShape{2, false, false, false}};
  FunctionSummary Nothing;
  Nothing.RegistersParam.resize(3);
  Nothing.OutParams.resize(3);
  EXPECT_EQ(describeAnswer(callEffects(nullptr, Strings)),
            describeAnswer(callEffects(&Nothing, Strings)));
  EXPECT_EQ(describeAnswer(callEffects(nullptr, Strings)), "");

  // A buffer a later lookup may read: a callee nothing is known of may pin
  // it, one whose summary registers nothing does not.
  CallShape Buffer = Strings;
  Buffer.Args[0].Keyed = true;
  EXPECT_EQ(describeAnswer(callEffects(nullptr, Buffer)),
            "0: registration maybe\n");
  EXPECT_EQ(describeAnswer(callEffects(&Nothing, Buffer)), "");
}

TEST(CallEffectsTest, ArgumentEffects) {
  FunctionSummary Summary;
  Summary.OutParams = {PointerValue::unknown(), std::nullopt};
  Summary.RegistersParam = {std::nullopt, Registration::No};
  // What a summarized function stores through an out-parameter is all it
  // does to it.
  ArgumentEffect Out =
      argumentEffect(&Summary, true, ArgumentShape{0, true, true, true});
  EXPECT_TRUE(Out.Stores);
  EXPECT_FALSE(Out.Registers);
  EXPECT_FALSE(Out.Clobbers);
  // Unregistering memory nothing names may undo any registration.
  ArgumentEffect Unregisters =
      argumentEffect(&Summary, true, pointerArgument(1, false));
  ASSERT_TRUE(Unregisters.Registers);
  EXPECT_EQ(*Unregisters.Registers, Registration::No);
  // Nothing known: it may store anything through '&p', and pin what it
  // gets; a kernel or a C library function does neither.
  ArgumentEffect Opaque =
      argumentEffect(nullptr, true, ArgumentShape{0, true, true, true});
  EXPECT_TRUE(Opaque.Clobbers);
  ASSERT_TRUE(Opaque.Registers);
  EXPECT_EQ(*Opaque.Registers, Registration::Maybe);
  EXPECT_TRUE(argumentEffect(nullptr, false, pointerArgument(0, true)).none());
}

TEST(CallEffectsTest, Syncs) {
  SyncShape Shape;
  Shape.OpaqueWithoutSummary = true;
  Shape.NumArgs = 3;
  Shape.Streams = {1};
  Shape.Events = {2};
  EXPECT_EQ(Shape.text(), "o1;n3;s1;e2");
  std::optional<SyncShape> Back = SyncShape::parse(Shape.text());
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->Streams, Shape.Streams);
  EXPECT_EQ(Back->Events, Shape.Events);
  EXPECT_FALSE(SyncShape::parse("o1;n3;s1"));
  EXPECT_FALSE(SyncShape::parse("o1;nx;s;e"));

  // Nothing known: it is assumed to synchronize what it is given.
  EXPECT_EQ(describeAnswer(callSyncs(nullptr, Shape)), " stream 1 event 2");
  SyncSummary Device;
  Device.Device = true;
  Device.StreamParams = {1, 5}; // 5: beyond this call's arguments.
  EXPECT_EQ(describeAnswer(callSyncs(&Device, Shape)), "device stream 1");
  Shape.OpaqueWithoutSummary = false;
  EXPECT_EQ(describeAnswer(callSyncs(nullptr, Shape)), "nothing");
  // Given no stream or event, nothing known and a summary that does not
  // sync the device answer alike.
  SyncShape Plain;
  Plain.OpaqueWithoutSummary = true;
  Plain.NumArgs = 2;
  SyncSummary None;
  EXPECT_EQ(describeAnswer(callSyncs(nullptr, Plain)),
            describeAnswer(callSyncs(&None, Plain)));
}

TEST(RegistrationReadsTest, WhatLaterLookupsCanName) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          R"(
    struct Plan { float *data; int n; };
    int cudaMemcpyAsync(void *dst, const void *src, unsigned long n, int k,
                        void *s);
    void external(Plan *p);
    void externalBuffer(float *p);
    void local(Plan *p) { (void)p; }
    void work(float *copied, float *handed, float *device, void *s) {
      Plan confined;
      confined.n = 4;
      external(&confined);
      Plan toLocal;
      local(&toLocal);
      Plan addressKept;
      Plan *kept = &addressKept;
      external(kept);
      float array[4];
      externalBuffer(array);
      externalBuffer(handed);
      cudaMemcpyAsync(device, copied, 4, 1, s); // host to device
    }
    void helper(float *p) { externalBuffer(p); }
    void caller(float *q) { helper(q); }
  )",
          {"-std=c++17"}, "input.cpp");
  ASSERT_TRUE(AST);
  clang::ASTContext &Ctx = AST->getASTContext();
  auto Named = [&](const char *Name) {
    return selectFirst<clang::NamedDecl>(
        "d", match(namedDecl(hasName(Name)).bind("d"), Ctx));
  };
  const auto *Work = llvm::cast<clang::FunctionDecl>(Named("work"));
  RegistrationReads Reads(Work, /*HasLocalCallers=*/false);
  auto Var = [&](const char *Name) {
    return llvm::cast<clang::VarDecl>(Named(Name));
  };
  EXPECT_FALSE(Reads.storageRead(Var("confined")));
  EXPECT_TRUE(Reads.storageRead(Var("toLocal")));
  EXPECT_TRUE(Reads.storageRead(Var("addressKept")));
  EXPECT_TRUE(Reads.storageRead(Var("array")));
  auto Param = [&](const char *Name) {
    return llvm::cast<clang::ParmVarDecl>(Named(Name));
  };
  EXPECT_TRUE(Reads.parameterRead(Param("copied")));
  EXPECT_FALSE(Reads.parameterRead(Param("handed")));
  // A copy's device side and its stream are no host memory.
  EXPECT_FALSE(Reads.parameterRead(Param("device")));
  EXPECT_FALSE(Reads.parameterRead(Param("s")));
  // A caller in the unit may take helper's summary.
  const auto *Helper = llvm::cast<clang::FunctionDecl>(Named("helper"));
  EXPECT_TRUE(RegistrationReads(Helper, true).parameterRead(Param("p")));
  EXPECT_FALSE(RegistrationReads(Helper, false).parameterRead(Param("p")));
}

} // namespace
