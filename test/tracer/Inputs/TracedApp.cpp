// A program for the tracer's CPU tests, over the stand-in runtime
// (FakeCudart.h). Each scenario is one pattern the checks know, as a bug or
// as its fix. MARK prints a call's line first, so the tests find it in the
// trace without counting lines.
#include "FakeCudart.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#define MARK(Name) std::printf("line %s %d\n", Name, __LINE__)

// A MARK and the call it marks share a line.
// clang-format off

static const int N = 1 << 16;
static void *Device;
static const void *Kernel = &Device;

static void pageable(cudaStream_t S) {
  char *Host = static_cast<char *>(std::malloc(N));
  for (int I = 0; I < 4; ++I) {
    MARK("pageable-copy"); cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(Kernel, S);
  }
  cudaStreamSynchronize(S);
  std::free(Host);
}

static void pinned(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(Kernel, S);
    cudaMemcpyAsync(Host, Device, N, cudaMemcpyDeviceToHost, S);
  }
  cudaStreamSynchronize(S);
  cudaFreeHost(Host);
}

// A stream per batch, and each iteration waits for its own batch.
static void syncInLoop(cudaStream_t A, cudaStream_t B) {
  void *Host;
  cudaMallocHost(&Host, N);
  cudaStream_t Streams[2] = {A, B};
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, Streams[I % 2]);
    cudaLaunchKernel(Kernel, Streams[I % 2]);
    MARK("sync-in-loop"); cudaStreamSynchronize(Streams[I % 2]);
  }
  cudaFreeHost(Host);
}

// The same on one stream: its iterations could not overlap anyway.
static void syncInSingleStreamLoop(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(Kernel, S);
    cudaStreamSynchronize(S);
  }
  cudaFreeHost(Host);
}

// cuda-samples' simpleMultiCopy: each iteration first waits for the other
// slot's previous cycle, then issues its own.
static void cycleDone(cudaStream_t A, cudaStream_t B) {
  void *Host;
  cudaMallocHost(&Host, 2 * N);
  char *In = static_cast<char *>(Host);
  cudaStream_t Streams[2] = {A, B};
  cudaEvent_t Done[2];
  for (int I = 0; I < 2; ++I) {
    cudaEventCreate(&Done[I]);
    cudaEventRecord(Done[I], Streams[I]);
  }
  int Current = 0;
  for (int I = 0; I < 6; ++I) {
    int Next = (Current + 1) % 2;
    cudaEventSynchronize(Done[Next]);
    cudaLaunchKernel(Kernel, Streams[Current]);
    cudaMemcpyAsync(Device, In + Next * N, N, cudaMemcpyHostToDevice, Streams[Next]);
    cudaMemcpyAsync(In + Current * N, Device, N, cudaMemcpyDeviceToHost, Streams[Current]);
    cudaEventRecord(Done[Current], Streams[Current]);
    Current = Next;
  }
  cudaDeviceSynchronize();
  cudaFreeHost(Host);
}

// Each iteration waits for the other stream, issued an iteration earlier.
static void doubleBuffer(cudaStream_t A, cudaStream_t B) {
  void *Host;
  cudaMallocHost(&Host, N);
  cudaStream_t Streams[2] = {A, B};
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, Streams[I % 2]);
    cudaLaunchKernel(Kernel, Streams[I % 2]);
    cudaStreamSynchronize(Streams[(I + 1) % 2]);
  }
  cudaDeviceSynchronize();
  cudaFreeHost(Host);
}

// Repeats of a pipeline, each synchronized once after its issuing loop.
static void syncAfterInnerLoop(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    for (int I = 0; I < 4; ++I) {
      cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
      cudaLaunchKernel(Kernel, S);
    }
    cudaStreamSynchronize(S);
  }
  cudaFreeHost(Host);
}

// One async operation per iteration: nothing to overlap.
static void singleOperation(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaStreamSynchronize(S);
  }
  cudaFreeHost(Host);
}

static void pinInLoop(cudaStream_t S) {
  for (int I = 0; I < 3; ++I) {
    void *Host;
    MARK("pin-in-loop"); cudaMallocHost(&Host, N);
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaStreamSynchronize(S);
    cudaFreeHost(Host);
  }
}

// A fixed set of buffers pinned once, before they are used.
static void setupPins(cudaStream_t S) {
  void *Ring[3];
  for (int I = 0; I < 3; ++I)
    cudaMallocHost(&Ring[I], N);
  for (int I = 0; I < 3; ++I)
    cudaMemcpyAsync(Device, Ring[I], N, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  for (int I = 0; I < 3; ++I)
    cudaFreeHost(Ring[I]);
}

// Work on the legacy stream, then on a created stream while it is pending:
// the created stream's work waits for it.
static void legacy(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  MARK("legacy-copy"); cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, nullptr);
  cudaLaunchKernel(Kernel, S);
  cudaDeviceSynchronize();
  cudaFreeHost(Host);
}

// cuda-samples' simpleHyperQ: a fan-out on created streams, a sum kernel on
// the legacy stream that gathers them, a blocking copy of the result.
static void legacyJoin(cudaStream_t A, cudaStream_t B) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int I = 0; I < 4; ++I)
    cudaLaunchKernel(Kernel, I % 2 ? A : B);
  cudaLaunchKernel(Kernel, nullptr);
  cudaMemcpy(Host, Device, N, cudaMemcpyDeviceToHost);
  cudaFreeHost(Host);
}

// Worker threads each pin one buffer and use it: no loop pins again.
static void workerThreads(cudaStream_t S) {
  std::thread Workers[6];
  for (std::thread &W : Workers)
    W = std::thread([S] {
      void *Host;
      cudaMallocHost(&Host, N);
      cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
      cudaStreamSynchronize(S);
    });
  for (std::thread &W : Workers)
    W.join();
}

// Non-blocking streams do not wait for the legacy stream, nor it for them.
static void legacyBesideNonBlocking() {
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, 0x1);
  void *Host;
  cudaMallocHost(&Host, N);
  cudaLaunchKernel(Kernel, S);
  cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, nullptr);
  cudaDeviceSynchronize();
  cudaFreeHost(Host);
}

static void registerLeak(cudaStream_t S) {
  char *Host = static_cast<char *>(std::malloc(N));
  MARK("register-leak"); cudaHostRegister(Host, N, 0);
  cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
}

static void registered(cudaStream_t S) {
  char *Host = static_cast<char *>(std::malloc(N));
  cudaHostRegister(Host, N, 0);
  cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
  cudaStreamSynchronize(S);
  cudaHostUnregister(Host);
  std::free(Host);
}

static void releaseFails() {
  void *Host = std::malloc(N);
  MARK("release-fails"); cudaFreeHost(Host);
  std::free(Host);
}

// Pinned memory released after a kernel faulted: the release fails with the
// fault's sticky error, not because of what it was given.
static void releaseAfterFault() {
  void *Host;
  cudaMallocHost(&Host, N);
  fakeFault();
  MARK("release-after-fault"); cudaFreeHost(Host);
}

static void crashInFree() {
  void *Host;
  cudaMallocHost(&Host, N);
  MARK("crash-free"); std::fflush(stdout); std::free(Host);
}

static void eventSyncInLoop(cudaStream_t A, cudaStream_t B) {
  void *Host;
  cudaMallocHost(&Host, N);
  cudaStream_t Streams[2] = {A, B};
  cudaEvent_t Done;
  cudaEventCreate(&Done);
  for (int I = 0; I < 3; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, Streams[I % 2]);
    cudaLaunchKernel(Kernel, Streams[I % 2]);
    cudaEventRecord(Done, Streams[I % 2]);
    MARK("event-sync-in-loop"); cudaEventSynchronize(Done);
  }
  cudaFreeHost(Host);
}

int main(int Argc, char **Argv) {
  cudaMalloc(&Device, N);
  cudaStream_t S, T;
  cudaStreamCreate(&S);
  cudaStreamCreate(&T);
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    if (!std::strcmp(A, "pageable"))
      pageable(S);
    else if (!std::strcmp(A, "pinned"))
      pinned(S);
    else if (!std::strcmp(A, "sync-in-loop"))
      syncInLoop(S, T);
    else if (!std::strcmp(A, "sync-single-stream"))
      syncInSingleStreamLoop(S);
    else if (!std::strcmp(A, "cycle-done"))
      cycleDone(S, T);
    else if (!std::strcmp(A, "legacy-join"))
      legacyJoin(S, T);
    else if (!std::strcmp(A, "worker-threads"))
      workerThreads(S);
    else if (!std::strcmp(A, "double-buffer"))
      doubleBuffer(S, T);
    else if (!std::strcmp(A, "sync-after-inner-loop"))
      syncAfterInnerLoop(S);
    else if (!std::strcmp(A, "single-operation"))
      singleOperation(S);
    else if (!std::strcmp(A, "pin-in-loop"))
      pinInLoop(S);
    else if (!std::strcmp(A, "setup-pins"))
      setupPins(S);
    else if (!std::strcmp(A, "legacy"))
      legacy(S);
    else if (!std::strcmp(A, "legacy-non-blocking"))
      legacyBesideNonBlocking();
    else if (!std::strcmp(A, "register-leak"))
      registerLeak(S);
    else if (!std::strcmp(A, "registered"))
      registered(S);
    else if (!std::strcmp(A, "release-fails"))
      releaseFails();
    else if (!std::strcmp(A, "release-after-fault"))
      releaseAfterFault();
    else if (!std::strcmp(A, "crash-free"))
      crashInFree();
    else if (!std::strcmp(A, "event-sync-in-loop"))
      eventSyncInLoop(S, T);
    else {
      std::fprintf(stderr, "unknown scenario '%s'\n", A);
      return 2;
    }
  }
  cudaFree(Device);
  return 0;
}
// clang-format on
