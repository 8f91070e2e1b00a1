//===- SiteTableTest.cpp - The tracer's rules per call site ---------------===//

#include "SiteTable.h"

#include "gtest/gtest.h"
#include <thread>

using namespace cuda_async_trace;

namespace {

/// Drives a SiteTable the way the injection library does, one call site per
/// (API, line).
class Program {
public:
  std::uint32_t site(const char *Api, std::uint32_t Line) {
    return Table.siteFor(catalogRow(Api), Api, Line);
  }
  void call(const char *Api, std::uint32_t Line, CallArgs Args = {},
            int Error = 0, bool PerThread = false) {
    Table.recordCall(site(Api, Line), Args, PerThread, 100, Error,
                     ++Correlation);
  }
  static CallArgs on(std::uintptr_t Stream) {
    CallArgs A;
    A.HasStream = true;
    A.Stream = Stream;
    return A;
  }
  const Site &at(const char *Api, std::uint32_t Line) {
    Sites = Table.sites();
    return Sites[site(Api, Line)];
  }

  SiteTable Table;
  std::vector<Site> Sites;
  std::uint64_t Correlation = 0;
};

constexpr std::uintptr_t S1 = 0x1000, S2 = 0x2000;

TEST(SiteTableTest, SyncWaitingForItsOwnIterationsWork) {
  // A stream per batch, each iteration waiting for its own batch.
  Program P;
  std::uintptr_t Streams[2] = {S1, S2};
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(Streams[I % 2]));
    P.call("cudaLaunchKernel", 2, Program::on(Streams[I % 2]));
    P.call("cudaStreamSynchronize", 3, Program::on(Streams[I % 2]));
  }
  const Site &Sync = P.at("cudaStreamSynchronize", 3);
  EXPECT_EQ(Sync.SyncsWithWork, 4u);
  // The first run has no previous run to compare with.
  EXPECT_EQ(Sync.RepeatedSyncsOfOwnWork, 3u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 1).WaitedByRepeatedSync, 3u);
}

TEST(SiteTableTest, OneStreamCannotOverlapItsOwnIterations) {
  Program P;
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaLaunchKernel", 2, Program::on(S1));
    P.call("cudaStreamSynchronize", 3, Program::on(S1));
  }
  EXPECT_EQ(P.at("cudaStreamSynchronize", 3).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, TwoStreamsInOneIterationAreEnough) {
  Program P;
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaLaunchKernel", 2, Program::on(S2));
    P.call("cudaDeviceSynchronize", 3);
  }
  EXPECT_EQ(P.at("cudaDeviceSynchronize", 3).RepeatedSyncsOfOwnWork, 2u);
}

TEST(SiteTableTest, AnIterationThatForksAndJoinsBackIsOneStream) {
  // hw13's timing loop: S2 waits for an event S1 recorded in the
  // iteration, S1 for one S2 recorded after its kernel; the GPU runs the
  // iterations in order whatever the host does.
  Program P;
  for (int I = 0; I < 4; ++I) {
    CallArgs Fork = Program::on(S1), ForkWait = Program::on(S2);
    CallArgs Join = Program::on(S2), JoinWait = Program::on(S1);
    Fork.Event = ForkWait.Event = 0x71;
    Join.Event = JoinWait.Event = 0x72;
    P.call("cudaLaunchKernel", 1, Program::on(S1));
    P.call("cudaEventRecord", 2, Fork);
    P.call("cudaStreamWaitEvent", 3, ForkWait);
    P.call("cudaLaunchKernel", 4, Program::on(S2));
    P.call("cudaEventRecord", 5, Join);
    P.call("cudaStreamWaitEvent", 6, JoinWait);
    P.call("cudaLaunchKernel", 7, Program::on(S1));
    P.call("cudaDeviceSynchronize", 8);
  }
  EXPECT_EQ(P.at("cudaDeviceSynchronize", 8).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, AForkWithoutAJoinIsTwoStreams) {
  // S2 waits for S1's event, S1 never for S2's: the next iteration's S1
  // work could overlap this one's S2 work.
  Program P;
  for (int I = 0; I < 4; ++I) {
    CallArgs Fork = Program::on(S1), ForkWait = Program::on(S2);
    Fork.Event = ForkWait.Event = 0x71;
    P.call("cudaLaunchKernel", 1, Program::on(S1));
    P.call("cudaEventRecord", 2, Fork);
    P.call("cudaStreamWaitEvent", 3, ForkWait);
    P.call("cudaLaunchKernel", 4, Program::on(S2));
    P.call("cudaDeviceSynchronize", 8);
  }
  EXPECT_EQ(P.at("cudaDeviceSynchronize", 8).RepeatedSyncsOfOwnWork, 3u);
}

TEST(SiteTableTest, WaitingForTheOtherSlotAtTheTopOfTheLoop) {
  // cuda-samples' simpleMultiCopy: each iteration first waits, through an
  // event, for the previous cycle's work on the other slot, then issues
  // its own; the slot it does not wait for stays in flight.
  Program P;
  std::uintptr_t Streams[2] = {S1, S2};
  CallArgs Record[2], Wait[2];
  for (int I = 0; I < 2; ++I) {
    Record[I] = Program::on(Streams[I]);
    Record[I].Event = Wait[I].Event = 0x70 + I;
    P.call("cudaEventRecord", 5, Record[I]);
  }
  int Current = 0;
  for (int I = 0; I < 6; ++I) {
    int Next = (Current + 1) % 2;
    P.call("cudaEventSynchronize", 1, Wait[Next]);
    P.call("cudaLaunchKernel", 2, Program::on(Streams[Current]));
    P.call("cudaMemcpyAsync", 3, Program::on(Streams[Next]));
    P.call("cudaMemcpyAsync", 4, Program::on(Streams[Current]));
    P.call("cudaEventRecord", 5, Record[Current]);
    Current = Next;
  }
  EXPECT_GT(P.at("cudaEventSynchronize", 1).SyncsWithWork, 0u);
  EXPECT_EQ(P.at("cudaEventSynchronize", 1).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, DoubleBufferWaitsForTheEarlierIteration) {
  Program P;
  std::uintptr_t Streams[2] = {S1, S2};
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(Streams[I % 2]));
    P.call("cudaLaunchKernel", 2, Program::on(Streams[I % 2]));
    P.call("cudaStreamSynchronize", 3, Program::on(Streams[(I + 1) % 2]));
  }
  const Site &Sync = P.at("cudaStreamSynchronize", 3);
  EXPECT_GT(Sync.SyncsWithWork, 0u);
  EXPECT_EQ(Sync.RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, OneOperationPerIterationIsNotALoopToOverlap) {
  Program P;
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaStreamSynchronize", 2, Program::on(S1));
  }
  EXPECT_EQ(P.at("cudaStreamSynchronize", 2).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, SyncAfterAnInnerIssuingLoop) {
  // for (repeat) { for (batch) { copy; kernel; } sync; }: the sync runs
  // again, but after the inner loop, as the check's contract accepts.
  Program P;
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    for (int Batch = 0; Batch < 4; ++Batch) {
      P.call("cudaMemcpyAsync", 1, Program::on(S1));
      P.call("cudaLaunchKernel", 2, Program::on(S1));
    }
    P.call("cudaStreamSynchronize", 3, Program::on(S1));
  }
  EXPECT_EQ(P.at("cudaStreamSynchronize", 3).SyncsWithWork, 3u);
  EXPECT_EQ(P.at("cudaStreamSynchronize", 3).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, SyncAfterTheLoopRunsOnce) {
  Program P;
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaLaunchKernel", 2, Program::on(S1));
  }
  P.call("cudaDeviceSynchronize", 3);
  const Site &Sync = P.at("cudaDeviceSynchronize", 3);
  EXPECT_EQ(Sync.SyncsWithWork, 1u);
  EXPECT_EQ(Sync.RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, EventSyncWaitsForWhatTheEventStoodFor) {
  Program P;
  CallArgs Record = Program::on(S1);
  Record.Event = 0x77;
  CallArgs Wait;
  Wait.Event = 0x77;
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaLaunchKernel", 2, Program::on(S2));
    P.call("cudaStreamWaitEvent", 6, Program::on(S1));
    P.call("cudaEventRecord", 3, Record);
    P.call("cudaEventSynchronize", 4, Wait);
  }
  EXPECT_EQ(P.at("cudaEventSynchronize", 4).RepeatedSyncsOfOwnWork, 0u)
      << "the event stood for S1's work alone: one stream";
}

TEST(SiteTableTest, EventSyncInALoopOverTwoStreams) {
  Program P;
  std::uintptr_t Streams[2] = {S1, S2};
  CallArgs Wait;
  Wait.Event = 0x77;
  for (int I = 0; I < 3; ++I) {
    CallArgs Record = Program::on(Streams[I % 2]);
    Record.Event = 0x77;
    P.call("cudaMemcpyAsync", 1, Program::on(Streams[I % 2]));
    P.call("cudaLaunchKernel", 2, Program::on(Streams[I % 2]));
    P.call("cudaEventRecord", 3, Record);
    P.call("cudaEventSynchronize", 4, Wait);
  }
  EXPECT_EQ(P.at("cudaEventSynchronize", 4).RepeatedSyncsOfOwnWork, 2u);
}

TEST(SiteTableTest, TimingEachOperationAloneWithEvents) {
  // Each operation between two events, waited for alone: one operation per
  // wait, whatever the stream issued before the earlier waits.
  Program P;
  CallArgs Record = Program::on(S1);
  Record.Event = 0x77;
  CallArgs Wait;
  Wait.Event = 0x77;
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaEventRecord", 2, Record);
    P.call("cudaEventSynchronize", 3, Wait);
    P.call("cudaLaunchKernel", 4, Program::on(S1));
    P.call("cudaEventRecord", 5, Record);
    P.call("cudaEventSynchronize", 6, Wait);
  }
  EXPECT_EQ(P.at("cudaEventSynchronize", 3).RepeatedSyncsOfOwnWork, 0u);
  EXPECT_EQ(P.at("cudaEventSynchronize", 6).RepeatedSyncsOfOwnWork, 0u);
}

TEST(SiteTableTest, BlockingCopyWaitsForBlockingStreamsOnly) {
  Program P;
  CallArgs NonBlocking;
  NonBlocking.Flags = 0x1;
  NonBlocking.Allocated = S2;
  P.call("cudaStreamCreateWithFlags", 1, NonBlocking);
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 2, Program::on(S2));
    P.call("cudaLaunchKernel", 3, Program::on(S2));
    P.call("cudaMemcpy", 4);
  }
  // cudaStreamNonBlocking: the legacy stream's blocking copy does not wait.
  EXPECT_EQ(P.at("cudaMemcpy", 4).SyncsWithWork, 0u);
  std::uintptr_t Blocking[2] = {S1, 0x3000};
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 5, Program::on(Blocking[I % 2]));
    P.call("cudaLaunchKernel", 6, Program::on(Blocking[I % 2]));
    P.call("cudaMemcpy", 7);
  }
  EXPECT_EQ(P.at("cudaMemcpy", 7).RepeatedSyncsOfOwnWork, 2u);
}

TEST(SiteTableTest, PinningInTheLoopThatUsesTheMemory) {
  Program P;
  for (int I = 0; I < 3; ++I) {
    CallArgs Alloc;
    Alloc.Allocated = 0x9000 + I;
    P.call("cudaMallocHost", 1, Alloc);
    P.call("cudaMemcpyAsync", 2, Program::on(S1));
    P.call("cudaStreamSynchronize", 3, Program::on(S1));
    CallArgs Free;
    Free.Ptr = 0x9000 + I;
    P.call("cudaFreeHost", 4, Free);
  }
  EXPECT_EQ(P.at("cudaMallocHost", 1).RepinnedInLoop, 2u);
}

TEST(SiteTableTest, ThreadsThatEachPinOnceAreNoLoop) {
  // Worker threads, each pinning its own buffer once and using it.
  Program P;
  for (int T = 0; T < 6; ++T)
    std::thread([&P, T] {
      CallArgs Alloc;
      Alloc.Allocated = 0x9000 + T;
      P.call("cudaMallocHost", 1, Alloc);
      P.call("cudaMemcpyAsync", 2, Program::on(S1));
      P.call("cudaStreamSynchronize", 3, Program::on(S1));
    }).join();
  EXPECT_EQ(P.at("cudaMallocHost", 1).Calls, 6u);
  EXPECT_EQ(P.at("cudaMallocHost", 1).RepinnedInLoop, 0u);
}

TEST(SiteTableTest, PinningAFixedSetBeforeUseIsSetUp) {
  Program P;
  for (int I = 0; I < 3; ++I) {
    CallArgs Alloc;
    Alloc.Allocated = 0x9000 + I;
    P.call("cudaHostAlloc", 1, Alloc);
  }
  for (int I = 0; I < 3; ++I)
    P.call("cudaMemcpyAsync", 2, Program::on(S1));
  EXPECT_EQ(P.at("cudaHostAlloc", 1).RepinnedInLoop, 0u);
}

TEST(SiteTableTest, RegistrationsLeftAtTheEnd) {
  Program P;
  CallArgs A, B;
  A.Ptr = 0x100;
  B.Ptr = 0x200;
  P.call("cudaHostRegister", 1, A);
  P.call("cudaHostRegister", 1, B);
  P.call("cudaHostUnregister", 2, A);
  P.Table.finish();
  EXPECT_EQ(P.at("cudaHostRegister", 1).LeftRegistered, 1u);
}

TEST(SiteTableTest, FailedCallsTrackNothing) {
  Program P;
  CallArgs A;
  A.Ptr = 0x100;
  P.call("cudaHostRegister", 1, A, /*Error=*/712);
  P.Table.finish();
  const Site &S = P.at("cudaHostRegister", 1);
  EXPECT_EQ(S.Failures, 1u);
  EXPECT_EQ(S.FirstError, 712);
  EXPECT_EQ(S.LeftRegistered, 0u);
}

TEST(SiteTableTest, LegacyStreamWorkHoldsBackLaterCreatedStreamWork) {
  Program P;
  P.call("cudaMemcpyAsync", 2, Program::on(0));
  P.call("cudaLaunchKernel", 1, Program::on(S1));
  P.call("cudaLaunchKernel", 1, Program::on(S2));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacySerialized, 1u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacyStreamCalls, 1u);
  // cudaStreamPerThread is not the legacy stream; nor is a null stream in a
  // per-thread (_ptsz) call.
  P.call("cudaMemcpyAsync", 3, Program::on(0x2));
  P.call("cudaMemcpyAsync", 4, Program::on(0), 0, /*PerThread=*/true);
  P.call("cudaLaunchKernel", 1, Program::on(S1));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 3).LegacySerialized, 0u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 4).PerThreadStreamCalls, 1u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 4).LegacySerialized, 0u);
}

/// A kernel launch on \p Stream given \p Words, as the driver described
/// its parameters.
CallArgs launch(std::uintptr_t Stream,
                std::initializer_list<std::uintptr_t> Words) {
  CallArgs A = Program::on(Stream);
  A.Kernel.Known = true;
  for (std::uintptr_t W : Words)
    A.Kernel.Words[A.Kernel.Count++] = W;
  return A;
}

TEST(SiteTableTest, CreatedStreamWorkThatTakesTheLegacyWorksBufferDependsOnIt) {
  // printf-alternative's shape: a legacy kernel writes 'out', the kernel on
  // the created stream reads it (and a count): it must wait on any stream.
  Program P;
  CallArgs Alloc, Other;
  Alloc.Allocated = 0xd000;
  Other.Allocated = 0xe000;
  Alloc.HasSize = Other.HasSize = true;
  Alloc.Size = Other.Size = 0x1000;
  P.call("cudaMalloc", 1, Alloc);
  P.call("cudaMalloc", 2, Other);
  P.call("cudaLaunchKernel", 3, launch(0, {0xd000, 100}));
  P.call("cudaLaunchKernel", 4, launch(S1, {0xd000 + 0x80, 100}));
  EXPECT_EQ(P.at("cudaLaunchKernel", 3).LegacySerialized, 0u);
  // An H2D copy on the legacy stream into the buffer the created stream's
  // kernel takes, then one into another buffer, which that kernel holds
  // back for nothing.
  CallArgs Copy = Program::on(0), Unrelated = Program::on(0);
  Copy.Dst = 0xd000 + 8;
  Unrelated.Dst = 0xe000;
  P.call("cudaDeviceSynchronize", 5);
  P.call("cudaMemcpyAsync", 6, Copy);
  P.call("cudaMemcpyAsync", 7, Unrelated);
  P.call("cudaLaunchKernel", 4, launch(S1, {0xd000 + 0x80, 100}));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 6).LegacySerialized, 0u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 7).LegacySerialized, 1u);
}

TEST(SiteTableTest, LegacyWorkALoopIssuesAgainHoldsBackTheNextChunk) {
  // overlap-data-transfers: each pass copies its chunk of one allocation
  // on its stream, the kernel on the legacy stream. The first pass's
  // kernel feeds its own copy back; from the second pass on, the kernel
  // of the pass before holds back this pass's upload of another chunk.
  Program P;
  CallArgs Alloc;
  Alloc.Allocated = 0xd000;
  Alloc.HasSize = true;
  Alloc.Size = 0x4000;
  P.call("cudaMalloc", 1, Alloc);
  std::uintptr_t Streams[2] = {S1, S2};
  for (int I = 0; I < 4; ++I) {
    std::uintptr_t Chunk = 0xd000 + I * 0x1000;
    CallArgs Up = Program::on(Streams[I % 2]), Down = Up;
    Up.Dst = Down.Src = Chunk;
    P.call("cudaMemcpyAsync", 2, Up);
    P.call("cudaLaunchKernel", 3, launch(0, {Chunk}));
    P.call("cudaMemcpyAsync", 4, Down);
  }
  EXPECT_EQ(P.at("cudaLaunchKernel", 3).LegacySerialized, 3u);
}

TEST(SiteTableTest, AKernelWhoseParametersAreNotDescribedMayTakeAnything) {
  // Without the driver's description of the kernel's parameters, nothing
  // says it depends on the legacy work: held back, as before.
  Program P;
  CallArgs Alloc, Copy = Program::on(0);
  Alloc.Allocated = 0xd000;
  Alloc.HasSize = true;
  Alloc.Size = 0x1000;
  Copy.Dst = 0xd000;
  P.call("cudaMalloc", 1, Alloc);
  P.call("cudaMemcpyAsync", 2, Copy);
  P.call("cudaLaunchKernel", 3, Program::on(S1));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacySerialized, 1u);
  // A released allocation is no buffer any more.
  CallArgs Free;
  Free.Ptr = 0xd000;
  P.call("cudaFree", 4, Free);
  P.call("cudaMemcpyAsync", 5, Copy);
  P.call("cudaLaunchKernel", 6, launch(S1, {0xd000}));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 5).LegacySerialized, 1u);
}

TEST(SiteTableTest, AJoinOnTheLegacyStreamIsNotAFinding) {
  // cuda-samples' simpleHyperQ: kernels fanned out on created streams, then
  // a sum on the legacy stream that gathers them, then a blocking copy.
  Program P;
  for (int I = 0; I < 4; ++I)
    P.call("cudaLaunchKernel", 1, Program::on(I % 2 ? S1 : S2));
  P.call("cudaLaunchKernel", 2, Program::on(0));
  P.call("cudaMemcpy", 3);
  EXPECT_EQ(P.at("cudaLaunchKernel", 2).LegacySerialized, 0u);
}

TEST(SiteTableTest, LegacyWorkTheHostWaitedForIsNotAFinding) {
  // A timing baseline on the legacy stream, waited for through an event
  // before the streamed version runs.
  Program P;
  CallArgs Record = Program::on(0);
  Record.Event = 0x77;
  CallArgs Wait;
  Wait.Event = 0x77;
  P.call("cudaLaunchKernel", 1, Program::on(0));
  P.call("cudaMemcpyAsync", 2, Program::on(0));
  P.call("cudaEventRecord", 3, Record);
  P.call("cudaEventSynchronize", 4, Wait);
  P.call("cudaLaunchKernel", 5, Program::on(S1));
  EXPECT_EQ(P.at("cudaLaunchKernel", 1).LegacySerialized, 0u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacySerialized, 0u);
}

TEST(SiteTableTest, LoneLegacyKernelIsNotAFinding) {
  Program P;
  P.call("cudaLaunchKernel", 1, Program::on(0));
  P.call("cudaDeviceSynchronize", 2);
  P.call("cudaLaunchKernel", 1, Program::on(0));
  EXPECT_EQ(P.at("cudaLaunchKernel", 1).LegacySerialized, 0u);
}

TEST(SiteTableTest, LegacyKernelInAStreamedLoop) {
  // The check's example: the kernel on the legacy stream holds back the
  // next copy on a created stream, every iteration.
  Program P;
  std::uintptr_t Streams[2] = {S1, S2};
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(Streams[I % 2]));
    P.call("cudaLaunchKernel", 2, Program::on(0));
    P.call("cudaMemcpyAsync", 3, Program::on(Streams[I % 2]));
  }
  EXPECT_EQ(P.at("cudaLaunchKernel", 2).LegacySerialized, 4u);
}

TEST(SiteTableTest, ActivityBySourceAndDestinationKinds) {
  Program P;
  P.call("cudaMemcpyAsync", 1, Program::on(S1));
  P.Table.recordActivity(1, 500, 4096, true, MemoryKind::Pageable,
                         MemoryKind::Device);
  P.Table.recordActivity(99, 500, 4096, true, MemoryKind::Pinned,
                         MemoryKind::Device);
  const Site &S = P.at("cudaMemcpyAsync", 1);
  EXPECT_EQ(S.PageableCopies, 1u);
  EXPECT_EQ(S.PageableBytes, 4096u);
  EXPECT_EQ(S.GpuNs, 500u);
  ASSERT_EQ(S.MemoryKinds.size(), 1u);
  EXPECT_EQ(*S.MemoryKinds.begin(), "pageable->device");
  EXPECT_EQ(P.Table.facts().UnmatchedActivity, 1u);
}

/// What an observer (the race detector) learns from the table.
struct Observed : CallObserver {
  std::vector<std::pair<StreamKey, std::uint64_t>> Issued, Completed;
  void pinned(std::uintptr_t, std::uint64_t, bool) override {}
  void unpinned(std::uintptr_t) override {}
  std::vector<std::uint32_t> Captures;
  std::vector<std::pair<std::uint32_t, StreamKey>> Launches;
  void copyIssued(std::uint32_t, const CatalogRow &, const CallArgs &,
                  StreamKey Stream, std::uint64_t Sequence, std::uint64_t,
                  std::uint32_t Capture) override {
    Issued.emplace_back(Stream, Sequence);
    Captures.push_back(Capture);
  }
  void graphLaunched(std::uint32_t Capture, StreamKey Stream,
                     std::uint64_t) override {
    Launches.emplace_back(Capture, Stream);
  }
  void completed(StreamKey Stream, std::uint64_t UpTo) override {
    Completed.emplace_back(Stream, UpTo);
  }
  void copyEnded(std::uint64_t, std::uint64_t) override {}
  /// Whether the host knows the copy issued as call \p Sequence on
  /// \p Stream is finished.
  bool done(StreamKey Stream, std::uint64_t Sequence) const {
    for (const auto &[S, UpTo] : Completed)
      if (S == Stream && UpTo >= Sequence)
        return true;
    return false;
  }
};

TEST(SiteTableTest, AWaitCoversWhatItsStreamWaitedFor) {
  // Copy on S1, an event S2 waits for, S2's own event synchronized: the
  // copy is finished too.
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  Call("cudaMemcpyAsync", Program::on(S1));
  CallArgs Record1 = Program::on(S1), Wait = Program::on(S2),
           Record2 = Program::on(S2);
  Record1.Event = Wait.Event = 0x71;
  Record2.Event = 0x72;
  Call("cudaEventRecord", Record1);
  Call("cudaStreamWaitEvent", Wait);
  Call("cudaLaunchKernel", Program::on(S2));
  Call("cudaEventRecord", Record2);
  ASSERT_EQ(O.Issued.size(), 1u);
  EXPECT_FALSE(O.done(S1, O.Issued[0].second));
  CallArgs Sync;
  Sync.Event = 0x72;
  Call("cudaEventSynchronize", Sync);
  EXPECT_TRUE(O.done(S1, O.Issued[0].second));
}

TEST(SiteTableTest, AWaitCoversTheLegacyWorkItsBlockingStreamRanAfter) {
  // A copy on the legacy stream, then work on blocking stream S1: that work
  // waits for the copy (CUDA's implicit synchronization), so S1's sync
  // covers the copy. A non-blocking S2's sync does not.
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  CallArgs Create;
  Create.Allocated = S2;
  Create.Flags = 0x1;
  Call("cudaStreamCreateWithFlags", Create);
  Call("cudaMemcpyAsync", Program::on(0));
  Call("cudaLaunchKernel", Program::on(S2));
  Call("cudaStreamSynchronize", Program::on(S2));
  ASSERT_EQ(O.Issued.size(), 1u);
  EXPECT_FALSE(O.done(0, O.Issued[0].second));
  Call("cudaLaunchKernel", Program::on(S1));
  Call("cudaStreamSynchronize", Program::on(S1));
  EXPECT_TRUE(O.done(0, O.Issued[0].second));
}

TEST(SiteTableTest, ABlockingStreamsEarlierWorkCoversNoLaterLegacyWork) {
  // Work on S1 issued before the legacy copy does not wait for it.
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  Call("cudaLaunchKernel", Program::on(S1));
  Call("cudaMemcpyAsync", Program::on(0));
  Call("cudaStreamSynchronize", Program::on(S1));
  ASSERT_EQ(O.Issued.size(), 1u);
  EXPECT_FALSE(O.done(0, O.Issued[0].second));
}

TEST(SiteTableTest, CapturedWorkIsNotInFlight) {
  // Work issued while S1 (and S2, joining through an event) is captured
  // into a graph runs only when the graph is launched.
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  Call("cudaStreamBeginCapture", Program::on(S1));
  CallArgs Fork = Program::on(S1), Join = Program::on(S2);
  Fork.Event = Join.Event = 0x71;
  Call("cudaEventRecord", Fork);
  Call("cudaStreamWaitEvent", Join);
  Call("cudaMemcpyAsync", Program::on(S1));
  Call("cudaMemcpyAsync", Program::on(S2));
  Call("cudaStreamEndCapture", Program::on(S1));
  EXPECT_TRUE(O.Issued.empty());
  Call("cudaMemcpyAsync", Program::on(S2));
  EXPECT_EQ(O.Issued.size(), 1u);
}

TEST(SiteTableTest, AGraphLaunchIssuesTheCopiesItsCaptureRecorded) {
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A, std::uint32_t Line = 0) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, Line), A, false, 1, 0,
                     0);
  };
  Call("cudaStreamBeginCapture", Program::on(S1));
  EXPECT_EQ(Table.captureOf(S1), std::optional<std::uint32_t>(1));
  EXPECT_FALSE(Table.captureOf(S2));
  Call("cudaMemcpyAsync", Program::on(S1), 1);
  Call("cudaMemcpyAsync", Program::on(S1), 2);
  CallArgs End = Program::on(S1);
  End.Allocated = 0x6000;
  Call("cudaStreamEndCapture", End);
  EXPECT_FALSE(Table.captureOf(S1));
  CallArgs Instantiate;
  Instantiate.Allocated = 0x7000;
  Instantiate.Graph = 0x6000;
  Call("cudaGraphInstantiate", Instantiate);
  EXPECT_TRUE(O.Issued.empty());
  // Each launch issues both copies on its stream, under the capture's
  // number.
  CallArgs Launch = Program::on(S2);
  Launch.Graph = 0x7000;
  Call("cudaGraphLaunch", Launch);
  Call("cudaGraphLaunch", Launch);
  ASSERT_EQ(O.Issued.size(), 4u);
  EXPECT_EQ(O.Issued[0].first, StreamKey(S2));
  EXPECT_EQ(O.Captures, std::vector<std::uint32_t>(4, 1));
  ASSERT_EQ(O.Launches.size(), 2u);
  EXPECT_EQ(O.Launches[0].first, 1u);
  // The launch is the stream's work: a wait for it finishes the copies.
  Call("cudaStreamSynchronize", Program::on(S2));
  EXPECT_TRUE(O.done(S2, O.Issued[3].second));
  // A graph the table did not see captured issues no copy.
  Launch.Graph = 0x8000;
  Call("cudaGraphLaunch", Launch);
  EXPECT_EQ(O.Issued.size(), 4u);
  EXPECT_EQ(O.Launches.back().first, 0u);
}

TEST(SiteTableTest, EachDeviceHasItsOwnLegacyStream) {
  // cudaDeviceSynchronize waits for the calling thread's device: a copy on
  // context 1's legacy stream is not finished by context 2's wait.
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A, std::uint32_t Context) {
    A.Context = Context;
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  Call("cudaMemcpyAsync", Program::on(0), 1);
  CallArgs Create;
  Create.Allocated = S1;
  Call("cudaStreamCreate", Create, 2);
  Call("cudaMemcpyAsync", Program::on(S1), 2);
  ASSERT_EQ(O.Issued.size(), 2u);
  EXPECT_EQ(O.Issued[0].first, StreamKey::legacy(1));
  Call("cudaDeviceSynchronize", {}, 2);
  EXPECT_FALSE(O.done(StreamKey::legacy(1), O.Issued[0].second));
  EXPECT_TRUE(O.done(S1, O.Issued[1].second));
  // Context 1's legacy stream does not cover a blocking stream created in
  // context 2.
  Call("cudaMemcpyAsync", Program::on(S1), 2);
  Call("cudaStreamSynchronize", Program::on(0), 1);
  EXPECT_TRUE(O.done(StreamKey::legacy(1), O.Issued[0].second));
  EXPECT_FALSE(O.done(S1, O.Issued[2].second));
}

TEST(SiteTableTest, EachThreadHasItsOwnPerThreadStream) {
  Observed O;
  SiteTable Table(&O);
  auto Call = [&](const char *Api, CallArgs A) {
    Table.recordCall(Table.siteFor(catalogRow(Api), Api, 0), A, false, 1, 0, 0);
  };
  constexpr std::uintptr_t PerThread = 0x2;
  Call("cudaMemcpyAsync", Program::on(PerThread));
  std::thread([&] {
    Call("cudaStreamSynchronize", Program::on(PerThread));
  }).join();
  ASSERT_EQ(O.Issued.size(), 1u);
  EXPECT_TRUE(O.Issued[0].first.isPerThread());
  EXPECT_FALSE(O.done(O.Issued[0].first, O.Issued[0].second));
  Call("cudaStreamSynchronize", Program::on(PerThread));
  EXPECT_TRUE(O.done(O.Issued[0].first, O.Issued[0].second));
}

TEST(SiteTableTest, ALoopIsOneThreads) {
  // Two threads run the same loop, each on its own stream: neither waits
  // for its own iteration's work on two streams (one stream cannot overlap
  // its iterations), though the sync site saw two streams.
  Program P;
  auto Loop = [&](std::uintptr_t Stream) {
    for (int I = 0; I < 4; ++I) {
      P.call("cudaMemcpyAsync", 1, Program::on(Stream));
      P.call("cudaLaunchKernel", 2, Program::on(Stream));
      P.call("cudaStreamSynchronize", 3, Program::on(Stream));
    }
  };
  std::thread(Loop, S1).join();
  std::thread(Loop, S2).join();
  EXPECT_EQ(P.at("cudaStreamSynchronize", 3).SyncsWithWork, 8u);
  EXPECT_EQ(P.at("cudaStreamSynchronize", 3).RepeatedSyncsOfOwnWork, 0u);
  // One thread's loop over two streams is still the finding.
  Program Q;
  std::thread([&] {
    std::uintptr_t Streams[2] = {S1, S2};
    for (int I = 0; I < 4; ++I) {
      Q.call("cudaMemcpyAsync", 1, Program::on(Streams[I % 2]));
      Q.call("cudaLaunchKernel", 2, Program::on(Streams[I % 2]));
      Q.call("cudaStreamSynchronize", 3, Program::on(Streams[I % 2]));
    }
  }).join();
  EXPECT_EQ(Q.at("cudaStreamSynchronize", 3).RepeatedSyncsOfOwnWork, 3u);
}

TEST(SiteTableTest, EveryCatalogRowHasAKind) {
  for (const char *Name : {"cudaMemcpyAsync", "cuMemcpyHtoDAsync",
                           "cudaMallocHost", "cudaFreeHost", "cudaHostRegister",
                           "cudaStreamSynchronize", "cudaLaunchKernel"})
    ASSERT_NE(catalogRow(Name), nullptr) << Name;
  EXPECT_EQ(catalogRow("malloc"), nullptr);
  EXPECT_EQ(catalogRow("cudaGetLastError"), nullptr);
  EXPECT_EQ(catalogRow("cudaMemcpyAsync")->Roles[4], ArgRole::Stream);
  EXPECT_TRUE(catalogRow("cudaMemcpyAsync")->Async);
  EXPECT_EQ(catalogRow("cudaMallocHost")->Memory, ApiMemory::Pinned);
}

} // namespace
