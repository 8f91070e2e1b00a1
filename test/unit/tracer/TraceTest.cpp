//===- TraceTest.cpp - The trace's JSON, findings and call sites ----------===//

#include "Trace.h"
#include "CallSiteSymbolizer.h"
#include "RuntimeFindings.h"

#include "gtest/gtest.h"

using namespace cuda_async_trace;

namespace {

TraceSite copySite(unsigned Line, std::uint64_t Pageable) {
  TraceSite S;
  S.Api = "cudaMemcpyAsync";
  S.Function = "cudaMemcpyAsync_v3020";
  S.Kind = "copy";
  S.Async = true;
  S.Location = {"/src/app.cu", Line, 5, "run()"};
  S.Calls = 4;
  S.HostNs = 6'900'000;
  S.PageableCopies = Pageable;
  S.PageableBytes = Pageable << 22;
  S.MemoryKinds = {Pageable ? "pageable->device" : "pinned->device"};
  return S;
}

TEST(TraceTest, JsonRoundTrip) {
  Trace T;
  T.Tracer = "CUPTI 130001";
  TracedProcess P;
  P.Pid = 42;
  P.Signal = 11;
  P.Crash = {"/src/app.cu", 9, 3, "~Frame()"};
  P.CrashedIn = "free";
  T.Processes.push_back(P);
  T.Sites = {copySite(10, 4), copySite(20, 0)};
  T.Findings = runtimeFindings(T);
  llvm::Expected<Trace> Back = traceFromJson(toJson(T));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Sites.size(), 2u);
  EXPECT_EQ(Back->Sites[0].PageableBytes, 4u << 22);
  EXPECT_EQ(*Back->Sites[1].MemoryKinds.begin(), "pinned->device");
  ASSERT_EQ(Back->Processes.size(), 1u);
  EXPECT_EQ(Back->Processes[0].CrashedIn, "free");
  EXPECT_EQ(Back->Processes[0].Crash.Line, 9u);
  ASSERT_EQ(Back->Findings.size(), 2u);
  EXPECT_EQ(Back->Findings[0].CheckId, "cuda-async-pageable-copy");
  EXPECT_EQ(Back->Findings[0].Location.Line, 10u);
  EXPECT_EQ(Back->Findings[1].CheckId, "cuda-async-dealloc-mismatch");
  EXPECT_EQ(Back->Findings[1].Location.Line, 9u);
}

TEST(TraceTest, MalformedTracesNameTheField) {
  auto Error = [](llvm::json::Value V) {
    llvm::Expected<Trace> T = traceFromJson(V);
    return T ? std::string("no error") : llvm::toString(T.takeError());
  };
  EXPECT_EQ(Error(llvm::json::Array{}), "the trace is not an object");
  EXPECT_EQ(Error(llvm::json::Object{{"format", "x"}}),
            "not a cuda-async-trace trace (its 'format' is 'x')");
  EXPECT_EQ(
      Error(llvm::json::Object{{"format", "cuda-async-trace"}, {"version", 3}}),
      "trace version 3 is not supported (this build reads version 1)");
  EXPECT_EQ(Error(llvm::json::Object{
                {"format", "cuda-async-trace"},
                {"version", 1},
                {"processes", llvm::json::Array{}},
                {"sites", llvm::json::Array{llvm::json::Object{{"calls", -1}}}},
                {"findings", llvm::json::Array{}}}),
            "sites[0] 'calls' is not a non-negative integer");
}

TEST(TraceTest, NoFindingWithoutALineOrEvidence) {
  Trace T;
  TraceSite Unlocated = copySite(0, 4);
  Unlocated.Location = {};
  T.Sites = {Unlocated, copySite(20, 0)};
  EXPECT_TRUE(runtimeFindings(T).empty());
}

TEST(TraceTest, FindingMessagesCarryTheCost) {
  Trace T;
  TraceSite Release;
  Release.Api = "cudaFreeHost";
  Release.Kind = "release";
  Release.Location = {"/src/app.cu", 30, 3, "run()"};
  Release.Calls = 2;
  Release.Failures = 1;
  Release.ArgumentFailures = 1;
  Release.FirstError = 1;
  // A release that failed with an earlier fault's sticky error
  // (cudaErrorIllegalAddress) was given nothing wrong.
  TraceSite AfterFault = Release;
  AfterFault.Location.Line = 40;
  AfterFault.ArgumentFailures = 0;
  AfterFault.FirstError = 700;
  T.Sites = {copySite(10, 4), Release, AfterFault};
  std::vector<RuntimeFinding> F = runtimeFindings(T);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Message,
            "'cudaMemcpyAsync' copied pageable host memory 4 times (16.0 "
            "MiB): the driver staged each copy and the host waited 6.9 ms in "
            "4 calls");
  EXPECT_EQ(F[1].Message, "'cudaFreeHost' failed in 1 of 2 calls "
                          "(cudaErrorInvalidValue): it was given memory it "
                          "does not release");
}

TEST(TraceTest, CallSiteRules) {
  EXPECT_TRUE(isRuntimeModule("/usr/local/cuda/lib64/libcudart.so.13"));
  EXPECT_TRUE(isRuntimeModule("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  EXPECT_TRUE(isRuntimeModule("/opt/t/libcuda-async-trace-injection.so"));
  EXPECT_TRUE(isRuntimeModule("/lib/x86_64-linux-gnu/libc.so.6"));
  EXPECT_FALSE(isRuntimeModule("/home/u/build/app"));
  EXPECT_FALSE(isRuntimeModule("/home/u/build/libcudnn_helpers.so"));
  EXPECT_TRUE(isLibraryFile("/usr/local/cuda-13.0/include/cuda_runtime.h"));
  EXPECT_TRUE(isLibraryFile("/tmp/tmpxft_0001_app.cudafe1.stub.c"));
  EXPECT_TRUE(isLibraryFile("/usr/include/c++/12/bits/unique_ptr.h"));
  EXPECT_TRUE(isLibraryFile(""));
  EXPECT_FALSE(isLibraryFile("/home/u/src/app.cu"));
  EXPECT_EQ(releaseFunction("__libc_free"), "free");
  EXPECT_EQ(releaseFunction("_ZdaPv"), "operator delete[]");
  EXPECT_EQ(releaseFunction("cudaFreeHost"), "cudaFreeHost");
  EXPECT_EQ(releaseFunction("malloc"), "");
  EXPECT_EQ(releaseFunction(""), "");
}

TEST(TraceTest, LaunchStubsNameTheirKernel) {
  // As nvcc 13 names them, and as LLVM's symbolizer demangles the frames.
  EXPECT_EQ(kernelOfStub("__device_stub__Z3sumPfi(float*, int)"), "sum");
  EXPECT_EQ(kernelOfStub("__device_stub__Z5scaleIfEvPT_S0_(float*, float)"),
            "scale");
  EXPECT_EQ(kernelOfStub("__wrapper__device_stub_scale<float>"), "scale");
  EXPECT_EQ(kernelOfStub("__device_stub__ZN2ns4stepEPf(float*)"), "ns::step");
  EXPECT_EQ(kernelOfStub("__device_stub__Z5plainPf(float*)"), "plain");
  EXPECT_EQ(kernelOfStub("main"), "");
  EXPECT_EQ(baseName("sum(float*, int)"), "sum");
  EXPECT_EQ(baseName("scale<float>"), "scale");
  EXPECT_EQ(baseName("void ns::scale<float>(float*, float)"), "ns::scale");
}

TEST(TraceTest, RaceFindingsNameTheAccessAndTheCopy) {
  Trace T;
  TraceRace R;
  R.Access = {"/src/app.cu", 30, 9, "run()"};
  R.Copy = {"/src/app.cu", 28, 3, "run()"};
  R.CopyApi = "cudaMemcpyAsync";
  R.DeviceToHost = true;
  R.CopyBytes = 1 << 20;
  R.Offset = 64;
  R.Count = 2;
  R.TimeLeftKnown = true;
  R.TimeLeftNs = 1'500'000;
  T.Races.push_back(R);
  R.Access.Line = 40;
  R.Write = true;
  R.DeviceToHost = false;
  R.TimeLeftNs = -3'000;
  R.Count = 1;
  T.Races.push_back(R);
  std::vector<RuntimeFinding> F = runtimeFindings(T);
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].CheckId, "cuda-async-unsynchronized-access");
  EXPECT_EQ(F[0].Location.Line, 30u);
  EXPECT_EQ(F[0].Related.Line, 28u);
  EXPECT_EQ(F[0].Message,
            "the host read the destination of a 1.0 MiB device-to-host "
            "'cudaMemcpyAsync' issued at app.cu:28 while it was in flight (at "
            "offset 64), 1.5 ms before the GPU finished it, 2 times: "
            "synchronize the copy's stream, or an event recorded after it, "
            "first");
  EXPECT_NE(F[1].Message.find("the host wrote the source of a 1.0 MiB "
                              "host-to-device"),
            std::string::npos);
  EXPECT_NE(F[1].Message.find("(the GPU had finished it 3 us earlier, but "
                              "nothing had told the host)"),
            std::string::npos);
  // And through the trace's JSON.
  T.Findings = F;
  llvm::Expected<Trace> Back = traceFromJson(toJson(T));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Races.size(), 2u);
  EXPECT_EQ(Back->Races[1].TimeLeftNs, -3'000);
  EXPECT_TRUE(Back->Races[1].Write);
  EXPECT_EQ(Back->Findings[0].Related.Line, 28u);
  EXPECT_EQ(Back->Findings[0].RelatedMessage,
            "the async copy it raced with was issued here");
}

TEST(TraceTest, Units) {
  EXPECT_EQ(formatDuration(1'900'000'000), "1.9 s");
  EXPECT_EQ(formatDuration(240'000'000), "240 ms");
  EXPECT_EQ(formatDuration(15'000), "15 us");
  EXPECT_EQ(formatBytes(16u << 20), "16.0 MiB");
  EXPECT_EQ(formatBytes(512), "512 B");
}

} // namespace
