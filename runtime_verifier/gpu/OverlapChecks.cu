//===- OverlapChecks.cu - Checks whose fix restores overlap ---------------===//
//
// Each variant is the reference pipeline written the way the check's finding
// (buggy) or its suggested fix (fixed) writes it.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "CudaCheck.h"

namespace cuda_async_verify {

std::shared_ptr<PipelineIO> makePipelineIO(const PipelineShape &Shape,
                                           HostAllocation Memory) {
  auto IO = std::make_shared<PipelineIO>();
  IO->In = HostBuffer(Shape.totalBytes(), Memory);
  IO->Out = HostBuffer(Shape.totalBytes(), Memory);
  for (unsigned Batch = 0; Batch < Shape.Batches; ++Batch)
    fillBatch(IO->In.data() + Batch * Shape.BatchElements, Shape.BatchElements,
              Batch);
  return IO;
}

std::shared_ptr<PipelineIO> pipelineIO(Bench &B, HostAllocation Memory) {
  std::shared_ptr<PipelineIO> &IO = B.IOs[Memory];
  if (!IO)
    IO = makePipelineIO(B.Shape, Memory);
  return IO;
}

PipelineVariant pipelineVariant(const PipelineShape &Shape, std::string Name,
                                Role Kind, std::string Description,
                                HostAllocation Memory,
                                std::shared_ptr<PipelineIO> IO,
                                std::function<void()> Issue,
                                std::function<void()> Finish) {
  PipelineVariant V;
  V.Name = std::move(Name);
  V.Kind = Kind;
  V.Description = std::move(Description);
  V.Memory = Memory;
  V.Issue = std::move(Issue);
  V.Finish = std::move(Finish);
  std::size_t Elements = Shape.totalElements();
  V.Prepare = [IO, Elements] { poison(IO->Out.data(), Elements); };
  V.Verify = [IO, Elements] {
    return compareOutputs(IO->In.data(), IO->Out.data(), Elements);
  };
  return V;
}

namespace {

/// Issues every batch over IO, batch b on StreamOf(b), running AfterBatch(b)
/// (if any) once each batch is issued.
std::function<void()>
issueEach(Bench &B, PipelineIO &IO,
          std::function<cudaStream_t(unsigned)> StreamOf,
          std::function<void(unsigned)> AfterBatch = nullptr) {
  return [&B, &IO, StreamOf, AfterBatch] {
    std::size_t N = B.Shape.BatchElements;
    for (unsigned Batch = 0; Batch < B.Shape.Batches; ++Batch) {
      issueBatch(B.Shape, B.Device, Batch, IO.In.data() + Batch * N,
                 IO.Out.data() + Batch * N, StreamOf(Batch));
      if (AfterBatch)
        AfterBatch(Batch);
    }
  };
}

/// Batch b on created stream b % S: the fixed form shared by several
/// checks, finished by one synchronization of every stream.
std::function<void()> issueOnStreams(Bench &B, PipelineIO &IO) {
  return issueEach(B, IO,
                   [&B](unsigned Batch) { return B.Device.stream(Batch); });
}

PipelineVariant variant(Bench &B, std::string Name, Role Kind,
                        std::string Description, HostAllocation Memory,
                        const std::shared_ptr<PipelineIO> &IO,
                        std::function<void()> Issue) {
  return pipelineVariant(B.Shape, std::move(Name), Kind, std::move(Description),
                         Memory, IO, std::move(Issue),
                         [&B] { B.Device.synchronizeStreams(); });
}

CheckResult runCheck(Bench &B, const char *Id,
                     const std::vector<PipelineVariant> &Variants) {
  CheckResult C;
  C.CheckId = Id;
  C.Kind = CheckKind::Overlap;
  C.Variants =
      measureTogether(Variants, B.Stages, B.Shape, B.Device, B.Settings);
  return C;
}

} // namespace

CheckResult verifyPageableCopy(Bench &B) {
  std::vector<PipelineVariant> Variants;
  const HostAllocation Kinds[] = {HostAllocation::Malloc,
                                  HostAllocation::CudaMallocHost,
                                  HostAllocation::CudaHostRegister};
  const char *Descriptions[] = {
      "host buffers from malloc: each cudaMemcpyAsync is staged through a "
      "driver buffer and returns only when the copy is done",
      "host buffers from cudaMallocHost (pinned): the copy engines DMA "
      "directly, the calls return at once",
      "host buffers from malloc, pinned in place with cudaHostRegister"};
  for (int I = 0; I < 3; ++I) {
    auto IO = pipelineIO(B, Kinds[I]);
    Variants.push_back(
        variant(B, allocationName(Kinds[I]), I == 0 ? Role::Buggy : Role::Fixed,
                Descriptions[I], Kinds[I], IO, issueOnStreams(B, *IO)));
  }
  return runCheck(B, "cuda-async-pageable-copy", Variants);
}

CheckResult verifyDefaultStream(Bench &B) {
  auto IO = pipelineIO(B, HostAllocation::CudaMallocHost);
  PipelineVariant Legacy = variant(
      B, "legacy default stream", Role::Buggy,
      "every batch on stream 0, the legacy default stream, which runs one "
      "operation at a time",
      HostAllocation::CudaMallocHost, IO,
      issueEach(B, *IO, [](unsigned) -> cudaStream_t {
        return 0; // the legacy default stream
      }));
  Legacy.Finish = [] {
    check(cudaStreamSynchronize(0), "cudaStreamSynchronize");
  };
  PipelineVariant Created = variant(
      B, "created streams", Role::Fixed, "batch b on created stream b % S",
      HostAllocation::CudaMallocHost, IO, issueOnStreams(B, *IO));
  return runCheck(B, "cuda-async-default-stream", {Legacy, Created});
}

CheckResult verifySyncInLoop(Bench &B) {
  auto IO = pipelineIO(B, HostAllocation::CudaMallocHost);
  PipelineVariant Inside = variant(
      B, "sync in the loop", Role::Buggy,
      "cudaStreamSynchronize on each batch's stream right after issuing it: "
      "the next batch is issued only when this one is done",
      HostAllocation::CudaMallocHost, IO,
      issueEach(
          B, *IO, [&B](unsigned Batch) { return B.Device.stream(Batch); },
          [&B](unsigned Batch) {
            check(cudaStreamSynchronize(B.Device.stream(Batch)),
                  "cudaStreamSynchronize");
          }));
  PipelineVariant After = variant(
      B, "sync after the loop", Role::Fixed,
      "every batch issued first, each stream synchronized once after the "
      "loop",
      HostAllocation::CudaMallocHost, IO, issueOnStreams(B, *IO));
  return runCheck(B, "cuda-async-sync-in-loop", {Inside, After});
}

CheckResult verifyPinnedAllocInLoop(Bench &B) {
  // Both variants read pinned inputs; they differ in where each batch's
  // pinned result buffer comes from.
  auto IO = pipelineIO(B, HostAllocation::CudaMallocHost);
  struct Verification {
    bool CheckNextRun = false;
    Correctness Last;
  };
  auto State = std::make_shared<Verification>();
  std::size_t N = B.Shape.BatchElements, Bytes = B.Shape.batchBytes();

  PipelineVariant PerBatch;
  PerBatch.Name = "pin per batch";
  PerBatch.Kind = Role::Buggy;
  PerBatch.Description =
      "cudaMallocHost of each batch's result buffer inside the issuing loop "
      "(freed with cudaFreeHost once the results are read)";
  PerBatch.Memory = HostAllocation::CudaMallocHost;
  // Issue and Finish share the run's result buffers.
  auto Pinned = std::make_shared<std::vector<float *>>();
  PerBatch.Issue = [&B, IO, State, Pinned, N, Bytes] {
    for (unsigned Batch = 0; Batch < B.Shape.Batches; ++Batch) {
      void *Buffer = nullptr;
      check(cudaMallocHost(&Buffer, Bytes), "cudaMallocHost");
      Pinned->push_back(static_cast<float *>(Buffer));
      // Fresh pinned pages may hold an earlier run's results.
      if (State->CheckNextRun)
        poison(Pinned->back(), N);
      issueBatch(B.Shape, B.Device, Batch, IO->In.data() + Batch * N,
                 Pinned->back(), B.Device.stream(Batch));
    }
  };
  PerBatch.Finish = [&B, IO, State, Pinned, N] {
    B.Device.synchronizeStreams();
    if (State->CheckNextRun) {
      std::uint64_t Wrong = 0;
      for (unsigned Batch = 0; Batch < B.Shape.Batches; ++Batch)
        Wrong += countWrong(IO->In.data() + Batch * N, (*Pinned)[Batch], N);
      State->Last = outputCorrectness(Wrong, B.Shape.totalElements());
      State->CheckNextRun = false;
    }
    for (float *Buffer : *Pinned)
      check(cudaFreeHost(Buffer), "cudaFreeHost");
    Pinned->clear();
  };
  PerBatch.Prepare = [State] { State->CheckNextRun = true; };
  PerBatch.Verify = [State] { return State->Last; };

  PipelineVariant Once = variant(
      B, "pin once", Role::Fixed,
      "result buffers pinned once with cudaMallocHost before the loop and "
      "reused by every run",
      HostAllocation::CudaMallocHost, IO, issueOnStreams(B, *IO));
  return runCheck(B, "cuda-async-pinned-alloc-in-loop", {PerBatch, Once});
}

} // namespace cuda_async_verify
