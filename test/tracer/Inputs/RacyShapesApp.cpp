// A program for the race detector's CPU tests beyond one stream's 1D copies
// (FakeCudart.h): copies a launched graph runs, 2D copies whose rows leave
// gaps, and several devices driven from several threads. Each scenario
// touches a copy's host side before or after the host learns it finished.
// MARK prints a line first, so the tests find it without counting lines.
#include "RacyScenario.h"

#include <cstdio>
#include <cstring>
#include <thread>

// A MARK and the access it marks share a line.
// clang-format off

// Copies that share pages: 16 copies of 256 bytes into one page, read
// before the wait (a race on the sixth) or only after it.
static void packedCopies(bool Racy) {
  char *Out = pinned(4096);
  for (int I = 0; I < 16; ++I)
    cudaMemcpyAsync(Out + I * 256, Device, 256, cudaMemcpyDeviceToHost, S);
  if (Racy) {
    MARK("packed-copies"); Sink = Out[5 * 256 + 7];
  }
  cudaStreamSynchronize(S);
  Sink = Out[5 * 256 + 7];
  cudaFreeHost(Out);
}

// An upload's source and a download's destination on one page, both in
// flight: reading the source is no race, although the download's
// protection makes the read fault (multi_threaded_p2p_opt's two norm
// buffers). Writing it before the wait is one.
static void sourceBesideDestination(bool Racy) {
  char *Host = pinned(4096);
  cudaMemcpyAsync(Device, Host, 64, cudaMemcpyHostToDevice, S);
  cudaMemcpyAsync(Host + 128, Device, 64, cudaMemcpyDeviceToHost, S);
  Sink = Host[3];
  if (Racy) {
    MARK("source-beside-destination"); Host[5] = 1;
  }
  cudaStreamSynchronize(S);
  Sink = Host[128 + 3];
  cudaFreeHost(Host);
}

// test/tracer/Inputs/gpu/small_copies.cu's pattern, twice: 64 slots of a
// page, host-to-device and device-to-host by turns, round-robin over 4
// streams, each stream waited for in turn, then every slot read and
// written.
static void roundRobinSlots() {
  const int Slots = 64, Streams = 4, Page = 4096;
  char *Host = pinned(Slots * Page);
  cudaStream_t Ss[Streams];
  for (cudaStream_t &St : Ss)
    cudaStreamCreate(&St);
  for (int Round = 0; Round < 2; ++Round) {
    for (int I = 0; I < Slots; ++I)
      if (I % 2)
        cudaMemcpyAsync(Host + I * Page, Device, Page, cudaMemcpyDeviceToHost,
                        Ss[I % Streams]);
      else
        cudaMemcpyAsync(Device, Host + I * Page, Page, cudaMemcpyHostToDevice,
                        Ss[I % Streams]);
    for (cudaStream_t &St : Ss)
      cudaStreamSynchronize(St);
    for (int I = 0; I < Slots; ++I)
      Host[I * Page] += 1;
  }
  cudaFreeHost(Host);
}

// The runtime verifier's reference pipeline, smaller: 8 batches of 1 MiB
// each way on 4 streams, every stream waited for, three times.
static void pipelineBatches() {
  const int Batches = 8, Streams = 4;
  const size_t Bytes = 1 << 20;
  char *In = pinned(Batches * Bytes), *Out = pinned(Batches * Bytes);
  char *Dev;
  cudaMalloc(reinterpret_cast<void **>(&Dev), Bytes);
  cudaStream_t Ss[Streams];
  for (cudaStream_t &St : Ss)
    cudaStreamCreate(&St);
  for (int Run = 0; Run < 3; ++Run) {
    for (int B = 0; B < Batches; ++B) {
      cudaMemcpyAsync(Dev, In + B * Bytes, Bytes, cudaMemcpyHostToDevice,
                      Ss[B % Streams]);
      cudaMemcpyAsync(Out + B * Bytes, Dev, Bytes, cudaMemcpyDeviceToHost,
                      Ss[B % Streams]);
    }
    for (cudaStream_t &St : Ss)
      cudaStreamSynchronize(St);
  }
  cudaFreeHost(In);
  cudaFreeHost(Out);
}

/// A graph of one device-to-host copy into \p Out, captured on S,
/// instantiated; \p Then, if any, captured after the copy.
static cudaGraphExec_t copyGraph(char *Out, cudaHostFn_t Then = nullptr) {
  cudaStreamBeginCapture(S, 0);
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  if (Then)
    cudaLaunchHostFunc(S, Then, Out);
  cudaGraph_t Graph;
  cudaStreamEndCapture(S, &Graph);
  cudaGraphExec_t Exec;
  cudaGraphInstantiate(&Exec, Graph, 0);
  return Exec;
}

// The graph's copy is in flight from its launch until the stream's wait.
static void graphReadBeforeSync() {
  char *Out = pinned();
  cudaGraphExec_t Exec = copyGraph(Out);
  // Capturing ran nothing: the buffer is the host's.
  Sink = Out[10];
  cudaGraphLaunch(Exec, S);
  MARK("graph-read-before-sync"); Sink = Out[20];
  cudaStreamSynchronize(S);
  Sink = Out[30];
  cudaFreeHost(Out);
}

static void graphSynced() {
  char *Out = pinned();
  cudaGraphExec_t Exec = copyGraph(Out);
  for (int I = 0; I < 3; ++I) {
    cudaGraphLaunch(Exec, S);
    cudaStreamSynchronize(S);
    Sink = Out[10];
  }
  cudaFreeHost(Out);
}

// A host function the capture recorded after the copy reads what it copied:
// it runs once the copy is done, at each launch.
static void readCopied(void *Data) { Sink = static_cast<char *>(Data)[10]; }
static void graphHostNode() {
  char *Out = pinned();
  cudaGraphExec_t Exec = copyGraph(Out, readCopied);
  cudaGraphLaunch(Exec, S);
  cudaGraphLaunch(Exec, S);
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

// A 2D copy of 3 rows of 1000 bytes, 8192 bytes apart: a byte between rows
// is the program's own (no race); a byte of a row is the copy's.
static void copy2dRows() {
  char *Out = pinned(3 * 8192);
  cudaMemcpy2DAsync(Out, 8192, Device, 1000, 1000, 3, cudaMemcpyDeviceToHost, S);
  Out[5000] = 1;
  Sink = Out[8192 + 1000];
  MARK("copy2d-rows"); Sink = Out[8192 + 10];
  cudaStreamSynchronize(S);
  Sink = Out[8192 + 10];
  cudaFreeHost(Out);
}

// Device 0's copy on its legacy stream; device 1's thread waits for its
// own device: device 0's copy is still in flight.
static void otherDeviceSync() {
  char *Out = pinned();
  cudaSetDevice(0);
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, nullptr);
  std::thread([] {
    cudaSetDevice(1);
    cudaDeviceSynchronize();
  }).join();
  MARK("other-device-sync"); Sink = Out[10];
  cudaDeviceSynchronize();
  Sink = Out[20];
  cudaFreeHost(Out);
}

// Each thread's per-thread default stream is its own: another thread's
// wait for its own does not finish this one's copy.
static void perThreadStreams() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, cudaStreamPerThread);
  std::thread([] { cudaStreamSynchronize(cudaStreamPerThread); }).join();
  MARK("per-thread-streams"); Sink = Out[10];
  cudaStreamSynchronize(cudaStreamPerThread);
  Sink = Out[20];
  cudaFreeHost(Out);
}

// Two threads, each on its own device and stream, each waiting for its own
// work before reading: nothing to report.
static void devicesThreads() {
  std::thread Workers[2];
  for (int D = 0; D < 2; ++D)
    Workers[D] = std::thread([D] {
      cudaSetDevice(D);
      cudaStream_t Mine;
      cudaStreamCreate(&Mine);
      char *Out = pinned();
      for (int I = 0; I < 4; ++I) {
        cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, Mine);
        cudaStreamSynchronize(Mine);
        Sink = Out[I];
      }
      cudaFreeHost(Out);
    });
  for (std::thread &W : Workers)
    W.join();
}

int main(int Argc, char **Argv) {
  cudaMalloc(&Device, N);
  cudaStreamCreate(&S);
  for (int I = 1; I < Argc; ++I) {
    struct {
      const char *Name;
      void (*Run)();
    } Scenarios[] = {
        {"graph-read-before-sync", graphReadBeforeSync},
        {"graph-synced", graphSynced}, {"graph-host-node", graphHostNode},
        {"copy2d-rows", copy2dRows}, {"other-device-sync", otherDeviceSync},
        {"per-thread-streams", perThreadStreams},
        {"devices-threads", devicesThreads},
        {"packed-copies", [] { packedCopies(true); }},
        {"packed-copies-synced", [] { packedCopies(false); }},
        {"round-robin-slots", roundRobinSlots},
        {"source-beside-destination",
         [] { sourceBesideDestination(true); }},
        {"source-read-beside-destination",
         [] { sourceBesideDestination(false); }},
        {"pipeline-batches", pipelineBatches}};
    bool Found = false;
    for (const auto &Scenario : Scenarios)
      if (!std::strcmp(Argv[I], Scenario.Name)) {
        Scenario.Run();
        Found = true;
      }
    if (!Found) {
      std::fprintf(stderr, "unknown scenario '%s'\n", Argv[I]);
      return 2;
    }
  }
  cudaFree(Device);
  return 0;
}
// clang-format on
