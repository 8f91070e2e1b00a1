//===- SiteTableTest.cpp - The tracer's rules per call site ---------------===//

#include "SiteTable.h"

#include "gtest/gtest.h"

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
  Program P;
  for (int I = 0; I < 4; ++I) {
    P.call("cudaMemcpyAsync", 1, Program::on(S1));
    P.call("cudaLaunchKernel", 2, Program::on(S1));
    P.call("cudaStreamSynchronize", 3, Program::on(S1));
  }
  const Site &Sync = P.at("cudaStreamSynchronize", 3);
  EXPECT_EQ(Sync.SyncsWithWork, 4u);
  // The first run has no previous run to compare with.
  EXPECT_EQ(Sync.RepeatedSyncsOfOwnWork, 3u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 1).WaitedByRepeatedSync, 3u);
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
    P.call("cudaLaunchKernel", 2, Program::on(S1));
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
  for (int I = 0; I < 3; ++I) {
    P.call("cudaMemcpyAsync", 5, Program::on(S1));
    P.call("cudaLaunchKernel", 6, Program::on(S1));
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

TEST(SiteTableTest, LegacyStreamWorkBesideBusyCreatedStreams) {
  Program P;
  P.call("cudaLaunchKernel", 1, Program::on(S1));
  P.call("cudaMemcpyAsync", 2, Program::on(0));
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacySerialized, 1u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 2).LegacyStreamCalls, 1u);
  // cudaStreamPerThread is not the legacy stream; nor is a null stream in a
  // per-thread (_ptsz) call.
  P.call("cudaMemcpyAsync", 3, Program::on(0x2));
  P.call("cudaMemcpyAsync", 4, Program::on(0), 0, /*PerThread=*/true);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 3).LegacySerialized, 0u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 4).PerThreadStreamCalls, 1u);
  EXPECT_EQ(P.at("cudaMemcpyAsync", 4).LegacySerialized, 0u);
}

TEST(SiteTableTest, LoneLegacyKernelIsNotAFinding) {
  Program P;
  P.call("cudaLaunchKernel", 1, Program::on(0));
  P.call("cudaDeviceSynchronize", 2);
  P.call("cudaLaunchKernel", 1, Program::on(0));
  EXPECT_EQ(P.at("cudaLaunchKernel", 1).LegacySerialized, 0u);
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
