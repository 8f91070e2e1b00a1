// A program for the race detector's CPU tests, over the stand-in runtime
// (FakeCudart.h): each scenario touches the host side of an async copy
// before or after the host learns it finished, or exercises what the
// detector must survive (shared pages, threads, fork, the program's own
// SIGSEGV handler, memory it cannot protect). MARK prints a line first, so
// the tests find it in the trace without counting lines.
#include "RacyScenario.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

// A MARK and the access it marks share a line.
// clang-format off

static void readBeforeSync() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  MARK("read-before-sync"); Sink = Out[4096 + 10];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

static void readAfterSync() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaStreamSynchronize(S);
  Sink = Out[10];
  cudaFreeHost(Out);
}

static void refillBeforeWait() {
  char *In = pinned();
  cudaMemcpyAsync(Device, In, N, cudaMemcpyHostToDevice, S);
  // Reading a host-to-device source is no race: the copy reads it too.
  Sink = In[0];
  MARK("refill-before-wait"); std::memset(In, 1, N);
  cudaStreamSynchronize(S);
  cudaFreeHost(In);
}

// Background document 000's loop: one pinned buffer refilled per batch,
// while the previous batch's copy may still read it.
static void refillLoop() {
  char *In = pinned();
  for (int I = 0; I < 4; ++I) {
    MARK("refill-loop"); std::memset(In, I, N);
    cudaMemcpyAsync(Device, In, N, cudaMemcpyHostToDevice, S);
    cudaLaunchKernel(&Device, S);
  }
  cudaStreamSynchronize(S);
  cudaFreeHost(In);
}

// Two buffers on one page: touching the one not in flight is no race.
static void sharedPage() {
  char *Page = pinned(4096);
  cudaMemcpyAsync(Page, Device, 2048, cudaMemcpyDeviceToHost, S);
  Page[3000] = 1;
  Sink = Page[4000];
  MARK("shared-page"); Sink = Page[100];
  cudaStreamSynchronize(S);
  cudaFreeHost(Page);
}

// A buffer that starts and ends inside pages.
static void unaligned() {
  char *Block = pinned(3 * 4096);
  cudaMemcpyAsync(Block + 100, Device, 5000, cudaMemcpyDeviceToHost, S);
  Block[50] = 1;
  Block[5200] = 2;
  MARK("unaligned"); Sink = Block[300];
  cudaStreamSynchronize(S);
  cudaFreeHost(Block);
}

static void otherThread() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  std::thread([Out] { MARK("other-thread"); Sink = Out[5]; }).join();
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

static void eventWait() {
  char *Out = pinned();
  cudaEvent_t Done;
  cudaEventCreate(&Done);
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaEventRecord(Done, S);
  cudaEventSynchronize(Done);
  Sink = Out[10];
  cudaFreeHost(Out);
}

// A query that says "not ready" says nothing; one that succeeds ends it.
static void queryWait() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaStreamQuery(S);
  fakeFinish(S);
  while (cudaStreamQuery(S) == cudaErrorNotReady)
    ;
  Sink = Out[10];
  cudaFreeHost(Out);
}

static void eventQueryWait() {
  char *Out = pinned();
  cudaEvent_t Done;
  cudaEventCreate(&Done);
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaEventRecord(Done, S);
  fakeFinish(S);
  while (cudaEventQuery(Done) == cudaErrorNotReady)
    ;
  Sink = Out[10];
  cudaFreeHost(Out);
}

// A host function enqueued after the copy runs once it is finished: it may
// read the buffer, and tell the host so.
static std::atomic<bool> Called{false};
static char *CallbackBuffer;
static void onDone(void *) {
  Sink = CallbackBuffer[10];
  Called = true;
}
static void hostFunction() {
  CallbackBuffer = pinned();
  cudaMemcpyAsync(CallbackBuffer, Device, N, cudaMemcpyDeviceToHost, S);
  cudaLaunchHostFunc(S, onDone, nullptr);
  while (!Called)
    ;
  Sink = CallbackBuffer[20];
  fakeJoinHostFunctions();
  cudaStreamSynchronize(S);
  cudaFreeHost(CallbackBuffer);
}

// cudaFreeHost waits for the device first; unregistration ends the pinning.
static void released() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaFreeHost(Out);
  char *Heap = static_cast<char *>(std::malloc(N));
  cudaHostRegister(Heap, N, 0);
  cudaMemcpyAsync(Heap, Device, N, cudaMemcpyDeviceToHost, S);
  cudaHostUnregister(Heap);
  Sink = Heap[10];
  cudaStreamSynchronize(S);
  std::free(Heap);
}

static void zeroBytes() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, 0, cudaMemcpyDeviceToHost, S);
  Sink = Out[0];
  cudaFreeHost(Out);
}

// The child of a fork has its own pages: nothing of its parent's is in
// flight for it. The parent still races.
static void forked() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  std::fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    Sink = Out[10];
    _exit(0);
  }
  int Status;
  waitpid(Child, &Status, 0);
  std::printf("child exit %d\n", WIFEXITED(Status) ? WEXITSTATUS(Status) : -1);
  MARK("fork-parent"); Sink = Out[20];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

// Registered memory freed while its copy still reads it: free() writes its
// own bookkeeping into the buffer.
static void freeInFlight() {
  char *Heap = static_cast<char *>(std::malloc(N));
  cudaHostRegister(Heap, N, 0);
  cudaMemcpyAsync(Device, Heap, N, cudaMemcpyHostToDevice, S);
  MARK("free-in-flight"); std::free(Heap);
  cudaStreamSynchronize(S);
}

// Registered mmap memory unmapped while in flight, the address taken again:
// the detector must neither crash nor claim the new mapping.
static void unmapped() {
  void *Map = mmap(nullptr, N, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  cudaHostRegister(Map, N, 0);
  cudaMemcpyAsync(Map, Device, N, cudaMemcpyDeviceToHost, S);
  munmap(Map, N);
  char *Again = static_cast<char *>(mmap(Map, N, PROT_READ | PROT_WRITE,
                                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  Again[10] = 1;
  cudaStreamSynchronize(S);
  Again[20] = 2;
  cudaHostUnregister(Map);
  munmap(Again, N);
}

// Registered memory mprotect cannot protect whole (its second page is gone):
// said once, not watched, nothing breaks.
static void unprotectable() {
  char *Map = static_cast<char *>(mmap(nullptr, 2 * 4096, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  munmap(Map + 4096, 4096);
  cudaHostRegister(Map, 2 * 4096, 0);
  cudaMemcpyAsync(Map, Device, 2 * 4096, cudaMemcpyDeviceToHost, S);
  Sink = Map[10];
  cudaStreamSynchronize(S);
  cudaHostUnregister(Map);
  munmap(Map, 4096);
}

// A copy larger than what the issuing thread protects itself: the head at
// once, the tail by the detector's helper thread soon after.
static const int Large = 8 << 20;
static void largeHead() {
  char *Out = pinned(Large);
  cudaMemcpyAsync(Out, Device, Large, cudaMemcpyDeviceToHost, S);
  MARK("large-head"); Sink = Out[100];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}
static void largeTail() {
  char *Out = pinned(Large);
  cudaMemcpyAsync(Out, Device, Large, cudaMemcpyDeviceToHost, S);
  usleep(200000);
  MARK("large-tail"); Sink = Out[Large - 100];
  cudaStreamSynchronize(S);
  Sink = Out[Large - 200];
  cudaFreeHost(Out);
}
// The middle of a large copy: watched with --races=full only.
static void largeMiddle() {
  char *Out = pinned(Large);
  cudaMemcpyAsync(Out, Device, Large, cudaMemcpyDeviceToHost, S);
  usleep(200000);
  MARK("large-middle"); Sink = Out[Large / 2];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}
// The middle of a large copy at once, in its first moments: --races=full
// protects all of it before the copy call returns.
static void largeMiddleAtOnce() {
  char *Out = pinned(Large);
  cudaMemcpyAsync(Out, Device, Large, cudaMemcpyDeviceToHost, S);
  MARK("large-middle-at-once"); Sink = Out[Large / 2 + 64];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}
// Its tail cannot be protected (the last page is gone): said once, the
// head is still watched.
static void unprotectableTail() {
  const int Bytes = 2 << 20;
  char *Map = static_cast<char *>(mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  munmap(Map + Bytes - 4096, 4096);
  cudaHostRegister(Map, Bytes, 0);
  cudaMemcpyAsync(Map, Device, Bytes, cudaMemcpyDeviceToHost, S);
  usleep(200000);
  MARK("unprotectable-tail"); Sink = Map[10];
  Sink = Map[Bytes - 8192];
  cudaStreamSynchronize(S);
  cudaHostUnregister(Map);
  munmap(Map, Bytes - 4096);
}

// The program takes SIGSEGV over after the tracer: said once, detection
// ends, the program runs on as it would untraced.
static void ownHandler(int) {
  const char Message[] = "own handler\n";
  (void)!write(1, Message, sizeof(Message) - 1);
  std::abort();
}
static void handlerAfter() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  std::signal(SIGSEGV, ownHandler);
  cudaStreamQuery(S);
  Sink = Out[10];
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

// A real crash, not a race: the program's own handler (installed before
// the tracer) reports it.
static void crash() {
  std::fflush(stdout);
  *static_cast<volatile int *>(nullptr) = 1;
}

// A host function captured into a graph runs at each launch of the graph:
// the work before the capture counts as finished when it is captured.
static void readFirstByte(void *Buffer) {
  Sink = static_cast<char *>(Buffer)[0];
}
static void capturedHostFunction() {
  char *Out = pinned();
  cudaMemcpyAsync(Out, Device, N, cudaMemcpyDeviceToHost, S);
  cudaStreamBeginCapture(S, 0);
  cudaLaunchHostFunc(S, readFirstByte, Out);
  cudaGraph_t Graph;
  cudaStreamEndCapture(S, &Graph);
  cudaGraphLaunch(Graph, S);
  cudaGraphLaunch(Graph, S);
  cudaStreamSynchronize(S);
  cudaFreeHost(Out);
}

// A real crash on a page the program itself made read-only: a protection
// fault (SEGV_ACCERR) like the detector's own, on no watched page. It runs
// again once (a protection may have been lifted meanwhile), then the
// program dies of it; it must never loop.
static void crashReadOnly() {
  char *Page = static_cast<char *>(mmap(nullptr, 4096, PROT_READ,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  std::fflush(stdout);
  *reinterpret_cast<volatile char *>(Page + 8) = 1;
}

int main(int Argc, char **Argv) {
  // A handler of the program's own, before any CUDA call: the tracer's
  // dispatcher chains to it for faults that are not its own.
  if (Argc > 1 && !std::strcmp(Argv[1], "own-handler-first")) {
    std::signal(SIGSEGV, ownHandler);
    ++Argv;
    --Argc;
  }
  cudaMalloc(&Device, N);
  cudaStreamCreate(&S);
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    struct {
      const char *Name;
      void (*Run)();
    } Scenarios[] = {
        {"read-before-sync", readBeforeSync}, {"read-after-sync", readAfterSync},
        {"refill-before-wait", refillBeforeWait}, {"refill-loop", refillLoop},
        {"shared-page", sharedPage}, {"unaligned", unaligned},
        {"other-thread", otherThread}, {"event-wait", eventWait},
        {"query-wait", queryWait}, {"event-query-wait", eventQueryWait},
        {"host-function", hostFunction}, {"released", released},
        {"zero-bytes", zeroBytes}, {"fork", forked},
        {"free-in-flight", freeInFlight}, {"unmapped", unmapped},
        {"unprotectable", unprotectable}, {"handler-after", handlerAfter},
        {"crash", crash}, {"crash-read-only", crashReadOnly},
        {"captured-host-function", capturedHostFunction},
        {"large-head", largeHead}, {"large-tail", largeTail},
        {"large-middle", largeMiddle},
        {"large-middle-at-once", largeMiddleAtOnce},
        {"unprotectable-tail", unprotectableTail}};
    bool Found = false;
    for (const auto &Scenario : Scenarios)
      if (!std::strcmp(A, Scenario.Name)) {
        Scenario.Run();
        Found = true;
      }
    if (!Found) {
      std::fprintf(stderr, "unknown scenario '%s'\n", A);
      return 2;
    }
  }
  cudaFree(Device);
  return 0;
}
// clang-format on
