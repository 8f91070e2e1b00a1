// A program for the tracer's CPU tests, over the stand-in runtime
// (FakeCudart.h). Each scenario is one pattern the checks know, as a bug or
// as its fix. MARK prints a call's line first, so the tests find it in the
// trace without counting lines.
#include "FakeCudart.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

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

static void syncInLoop(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  for (int I = 0; I < 4; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(Kernel, S);
    MARK("sync-in-loop"); cudaStreamSynchronize(S);
  }
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

static void legacy(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  cudaLaunchKernel(Kernel, S);
  MARK("legacy-copy"); cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, nullptr);
  cudaDeviceSynchronize();
  cudaFreeHost(Host);
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

static void crashInFree() {
  void *Host;
  cudaMallocHost(&Host, N);
  MARK("crash-free"); std::fflush(stdout); std::free(Host);
}

static void eventSyncInLoop(cudaStream_t S) {
  void *Host;
  cudaMallocHost(&Host, N);
  cudaEvent_t Done;
  cudaEventCreate(&Done);
  for (int I = 0; I < 3; ++I) {
    cudaMemcpyAsync(Device, Host, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(Kernel, S);
    cudaEventRecord(Done, S);
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
      syncInLoop(S);
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
    else if (!std::strcmp(A, "crash-free"))
      crashInFree();
    else if (!std::strcmp(A, "event-sync-in-loop"))
      eventSyncInLoop(S);
    else {
      std::fprintf(stderr, "unknown scenario '%s'\n", A);
      return 2;
    }
  }
  cudaFree(Device);
  return 0;
}
// clang-format on
