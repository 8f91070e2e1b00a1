//===- UnsynchronizedAccess.cu - Touching buffers before the sync ---------===//
//
// cuda-async-unsynchronized-access in its two directions: the host reads a
// D2H destination before the stream is synchronized (it sees stale data), and
// the host refills the source of a pending H2D copy (the device receives the
// next batch's data: the race in background document 000's loop).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "CudaCheck.h"

#include <cstring>

namespace cuda_async_verify {

namespace {

/// Accumulates the outcome of repeated runs of one variant.
struct Tally {
  Correctness Total;
  unsigned Runs = 0;
  unsigned RunsWrong = 0;

  void add(std::uint64_t Checked, std::uint64_t Wrong) {
    Total.Checked += Checked;
    Total.Wrong += Wrong;
    ++Runs;
    RunsWrong += Wrong > 0;
  }
  Correctness result(const std::string &WhatIsWrong) const {
    Correctness C = Total;
    C.Correct = Total.Wrong == 0;
    C.Detail = C.Correct
                   ? "all " + std::to_string(Total.Checked) +
                         " values right, in every one of " +
                         std::to_string(Runs) + " runs"
                   : std::to_string(Total.Wrong) + " of " +
                         std::to_string(Total.Checked) + " values " +
                         WhatIsWrong + ", in " + std::to_string(RunsWrong) +
                         " of " + std::to_string(Runs) + " runs";
    return C;
  }
};

/// Whether --variants keeps the variants of role \p Kind.
bool runs(const Bench &B, Role Kind) {
  return !B.Settings.OnlyRole || *B.Settings.OnlyRole == Kind;
}

VariantResult correctnessVariant(std::string Name, Role Kind,
                                 std::string Description, Correctness C) {
  VariantResult V;
  V.Name = std::move(Name);
  V.Kind = Kind;
  V.Description = std::move(Description);
  V.Output = std::move(C);
  return V;
}

CheckResult readBeforeSync(Bench &B) {
  auto IO = pipelineIO(B, HostAllocation::CudaMallocHost);
  std::size_t Elements = B.Shape.totalElements(), N = B.Shape.BatchElements;
  auto Issue = [&] {
    for (unsigned Batch = 0; Batch < B.Shape.Batches; ++Batch)
      issueBatch(B.Shape, B.Device, Batch, IO->In.data() + Batch * N,
                 IO->Out.data() + Batch * N, B.Device.stream(Batch));
  };
  Tally Early, Late;
  for (unsigned Run = 0; Run < B.Settings.Repeats; ++Run) {
    // Buggy: the host consumes the results as soon as the work is issued.
    if (runs(B, Role::Buggy)) {
      poison(IO->Out.data(), Elements);
      Issue();
      Early.add(Elements, countWrong(IO->In.data(), IO->Out.data(), Elements));
      B.Device.synchronizeStreams();
    }
    // Fixed: the same read after synchronizing the streams.
    if (runs(B, Role::Fixed)) {
      poison(IO->Out.data(), Elements);
      Issue();
      B.Device.synchronizeStreams();
      Late.add(Elements, countWrong(IO->In.data(), IO->Out.data(), Elements));
    }
  }
  CheckResult C;
  C.CheckId = "cuda-async-unsynchronized-access";
  C.Scenario = "host reads D2H results before synchronizing";
  C.Kind = CheckKind::Correctness;
  if (runs(B, Role::Buggy))
    C.Variants.push_back(correctnessVariant(
        "read before sync", Role::Buggy,
        "reads every output right after issuing the pipeline",
        Early.result("still the poison (stale)")));
  if (runs(B, Role::Fixed))
    C.Variants.push_back(correctnessVariant(
        "read after sync", Role::Fixed,
        "reads every output after cudaStreamSynchronize on each stream",
        Late.result("wrong")));
  return C;
}

CheckResult refillBeforeCopy(Bench &B) {
  // Document 000's loop: one pinned buffer, refilled for each batch, copied
  // on one stream. The race shows when the GPU runs behind the host, so the
  // kernel here does 8x the reference work.
  PipelineShape Shape = B.Shape;
  Shape.Intensity = B.Shape.Intensity * 8;
  std::size_t N = Shape.BatchElements, Bytes = Shape.batchBytes();
  HostBuffer Pinned(Bytes, HostAllocation::CudaMallocHost);
  HostBuffer Data(Shape.totalBytes(), HostAllocation::Malloc);
  HostBuffer Results(Shape.totalBytes(), HostAllocation::CudaMallocHost);
  for (unsigned Batch = 0; Batch < Shape.Batches; ++Batch)
    fillBatch(Data.data() + Batch * N, N, Batch);
  cudaStream_t Stream = B.Device.stream(0);
  cudaEvent_t Copied;
  check(cudaEventCreateWithFlags(&Copied, cudaEventDisableTiming),
        "cudaEventCreateWithFlags");

  auto Run = [&](bool WaitForCopy) {
    poison(Results.data(), Shape.totalElements());
    for (unsigned Batch = 0; Batch < Shape.Batches; ++Batch) {
      // The fix: the previous batch's H2D must have read the buffer before
      // the host overwrites it.
      if (WaitForCopy && Batch > 0)
        check(cudaEventSynchronize(Copied), "cudaEventSynchronize");
      std::memcpy(Pinned.data(), Data.data() + Batch * N, Bytes);
      check(cudaMemcpyAsync(B.Device.input(Batch), Pinned.data(), Bytes,
                            cudaMemcpyHostToDevice, Stream),
            "cudaMemcpyAsync (H2D)");
      check(cudaEventRecord(Copied, Stream), "cudaEventRecord");
      B.Device.launchProcess(Batch, Shape.Intensity, Stream);
      check(cudaMemcpyAsync(Results.data() + Batch * N, B.Device.output(Batch),
                            Bytes, cudaMemcpyDeviceToHost, Stream),
            "cudaMemcpyAsync (D2H)");
    }
    check(cudaStreamSynchronize(Stream), "cudaStreamSynchronize");
    return countWrong(Data.data(), Results.data(), Shape.totalElements());
  };
  Tally Racy, Safe;
  for (unsigned R = 0; R < B.Settings.Repeats; ++R) {
    if (runs(B, Role::Buggy))
      Racy.add(Shape.totalElements(), Run(false));
    if (runs(B, Role::Fixed))
      Safe.add(Shape.totalElements(), Run(true));
  }
  cudaEventDestroy(Copied);

  CheckResult C;
  C.CheckId = "cuda-async-unsynchronized-access";
  C.Scenario = "host refills a pinned buffer while its H2D copy is pending "
               "(document 000)";
  C.Kind = CheckKind::Correctness;
  if (runs(B, Role::Buggy))
    C.Variants.push_back(correctnessVariant(
        "refill without waiting", Role::Buggy,
        "prepareBatch overwrites the pinned buffer right after issuing the "
        "previous batch's cudaMemcpyAsync",
        Racy.result("computed from another batch's data")));
  if (runs(B, Role::Fixed))
    C.Variants.push_back(correctnessVariant(
        "wait for the copy", Role::Fixed,
        "cudaEventSynchronize on an event recorded after the H2D copy before "
        "refilling",
        Safe.result("wrong")));
  return C;
}

} // namespace

std::vector<CheckResult> verifyUnsynchronizedAccess(Bench &B) {
  return {readBeforeSync(B), refillBeforeCopy(B)};
}

} // namespace cuda_async_verify
