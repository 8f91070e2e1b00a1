// The stand-in runtime (FakeCudart.h). Built as libcudart_fake.so: the
// tracer passes over frames in libcudart*, as it does the real runtime's.
// With CUDA_ASYNC_TRACE_RACES=1 its recorder detects races, as the
// injection library's does.
#include "FakeCudart.h"

#include "Recorder.h"
#include "SignalHandlers.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <set>
#include <sys/mman.h>
#include <thread>
#include <vector>

using namespace cuda_async_trace;

namespace {

std::string *Pattern;
Recorder *Record;
// The real runtime is thread-safe, and programs call it from several threads
// at once (worker-threads): so is the stand-in's page-locked memory, under
// its own lock (call() may run under Lock).
std::mutex PinnedLock;
std::map<const char *, std::size_t> Pinned; // start -> size
std::atomic<std::uint64_t> Correlation{0};
std::mutex Lock;
std::set<cudaStream_t> Finished;
std::map<cudaEvent_t, cudaStream_t> RecordedOn;
std::vector<std::thread> HostFunctions;
/// The capturing streams, and the host functions captured on each.
std::map<cudaStream_t, std::vector<std::function<void()>>> Capturing;
/// The calling thread's device (cudaSetDevice); its context is numbered
/// one more, as CUPTI numbers contexts from 1.
thread_local int CurrentDevice = 0;

std::uint64_t nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<std::uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(T.tv_nsec);
}

Recorder &recorder() {
  if (!Record) {
    const char *Out = std::getenv("CUDA_ASYNC_TRACE_OUTPUT");
    std::optional<RaceCoverage> Races =
        raceCoverageFromEnv(std::getenv("CUDA_ASYNC_TRACE_RACES"));
    Pattern = new std::string(Out ? Out : "fake.%p.raw.json");
    Record = new Recorder("fake CUDA runtime", Races.has_value(), 0,
                          Races.value_or(RaceCoverage::Ends));
    installSignalHandlers(Record, Pattern);
    std::atexit([] {
      fakeJoinHostFunctions();
      Record->write(*Pattern);
    });
    pthread_atfork(nullptr, nullptr, [] {
      if (RaceDetector *R = Record->races())
        R->forkedChild();
    });
  }
  return *Record;
}

MemoryKind hostKind(const void *P) {
  auto *C = static_cast<const char *>(P);
  std::lock_guard<std::mutex> Guard(PinnedLock);
  auto It = Pinned.upper_bound(C);
  if (It != Pinned.begin()) {
    --It;
    if (C < It->first + It->second)
      return MemoryKind::Pinned;
  }
  return MemoryKind::Pageable;
}

/// One traced call, as the injection library's callback records it. The
/// stack is captured here, inside the runtime: the symbolizer passes over
/// this library's frames to the caller's line.
std::atomic<int> StickyError{0};

int call(const char *Name, CallArgs Args, int Error = 0,
         const void *Host = nullptr, bool ToDevice = true) {
  if (!Error)
    Error = StickyError;
  const CatalogRow *Row = catalogRow(Name);
  Args.Context = static_cast<std::uint32_t>(CurrentDevice + 1);
  bool Captured;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Captured = Args.HasStream &&
               Capturing.count(reinterpret_cast<cudaStream_t>(Args.Stream));
  }
  std::uint32_t Site = recorder().enter(Row, Name, 1);
  std::uint64_t Id = ++Correlation;
  if (RaceDetector *Races = recorder().races())
    Races->checkHandler(signalDispatcher);
  recorder().sites().recordCall(Site, Args, false, 1000, Error, Id);
  // A captured copy does nothing until the graph runs.
  if (!Error && Row->Kind == CallKind::Copy && !Captured) {
    MemoryKind H = hostKind(Host);
    // The stand-in's copies take a millisecond of GPU time each.
    recorder().sites().recordActivity(
        Id, 500, Args.Size, true, ToDevice ? H : MemoryKind::Device,
        ToDevice ? MemoryKind::Device : H, nowNs() + 1000000);
  }
  return Error;
}

/// \p Stream has work again: its queries say "not ready" until fakeFinish.
void busy(cudaStream_t Stream) {
  std::lock_guard<std::mutex> Guard(Lock);
  Finished.erase(Stream);
}

CallArgs onStream(cudaStream_t S) {
  CallArgs A;
  A.HasStream = true;
  A.Stream = reinterpret_cast<std::uintptr_t>(S);
  return A;
}

} // namespace

extern "C" {

int cudaMallocHost(void **Ptr, size_t Size) {
  // Not malloc's memory, as the real pinned memory is not: free() of it
  // crashes in the C library.
  void *P = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  *Ptr = P;
  {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    Pinned[static_cast<const char *>(P)] = Size;
  }
  CallArgs A;
  A.HasSize = true;
  A.Size = Size;
  A.Allocated = reinterpret_cast<std::uintptr_t>(P);
  return call("cudaMallocHost", A);
}

int cudaFreeHost(void *Ptr) {
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  std::optional<std::size_t> Size;
  {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    if (auto It = Pinned.find(static_cast<const char *>(Ptr));
        It != Pinned.end()) {
      Size = It->second;
      Pinned.erase(It);
    }
  }
  if (!Size)
    return call("cudaFreeHost", A, /*cudaErrorInvalidValue*/ 1);
  munmap(Ptr, *Size);
  return call("cudaFreeHost", A);
}

int cudaMalloc(void **Ptr, size_t Size) {
  *Ptr = std::malloc(Size);
  CallArgs A;
  A.HasSize = true;
  A.Size = Size;
  return call("cudaMalloc", A);
}

int cudaFree(void *Ptr) {
  std::free(Ptr);
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  return call("cudaFree", A);
}

int cudaHostRegister(void *Ptr, size_t Size, unsigned Flags) {
  {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    Pinned[static_cast<const char *>(Ptr)] = Size;
  }
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  A.HasSize = true;
  A.Size = Size;
  A.Flags = Flags;
  return call("cudaHostRegister", A);
}

int cudaHostUnregister(void *Ptr) {
  {
    std::lock_guard<std::mutex> Guard(PinnedLock);
    Pinned.erase(static_cast<const char *>(Ptr));
  }
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  return call("cudaHostUnregister", A);
}

int cudaMemcpyAsync(void *Dst, const void *Src, size_t Size,
                    cudaMemcpyKind Kind, cudaStream_t Stream) {
  CallArgs A = onStream(Stream);
  A.HasSize = true;
  A.Size = Size;
  A.Dst = reinterpret_cast<std::uintptr_t>(Dst);
  A.Src = reinterpret_cast<std::uintptr_t>(Src);
  A.HasCopyKind = true;
  A.CopyKind = Kind;
  busy(Stream);
  bool ToDevice = Kind == cudaMemcpyHostToDevice;
  return call("cudaMemcpyAsync", A, 0, ToDevice ? Src : Dst, ToDevice);
}

int cudaMemcpy(void *Dst, const void *Src, size_t Size, cudaMemcpyKind Kind) {
  CallArgs A;
  A.HasSize = true;
  A.Size = Size;
  bool ToDevice = Kind == cudaMemcpyHostToDevice;
  return call("cudaMemcpy", A, 0, ToDevice ? Src : Dst, ToDevice);
}

int cudaMemcpy2DAsync(void *Dst, size_t DstPitch, const void *Src,
                      size_t SrcPitch, size_t Width, size_t Height,
                      cudaMemcpyKind Kind, cudaStream_t Stream) {
  CallArgs A = onStream(Stream);
  A.Dst = reinterpret_cast<std::uintptr_t>(Dst);
  A.Src = reinterpret_cast<std::uintptr_t>(Src);
  A.HasCopyKind = true;
  A.CopyKind = Kind;
  A.HasShape = true;
  A.Shape.Width = Width;
  A.Shape.Height = Height;
  A.Shape.DstPitch = DstPitch;
  A.Shape.SrcPitch = SrcPitch;
  A.HasSize = true;
  A.Size = Width * Height;
  busy(Stream);
  bool ToDevice = Kind == cudaMemcpyHostToDevice;
  return call("cudaMemcpy2DAsync", A, 0, ToDevice ? Src : Dst, ToDevice);
}

int cudaSetDevice(int Device) {
  CurrentDevice = Device;
  return 0;
}

int cudaLaunchKernel(const void *, cudaStream_t Stream) {
  return call("cudaLaunchKernel", onStream(Stream));
}

int cudaStreamCreate(cudaStream_t *Stream) {
  *Stream = reinterpret_cast<cudaStream_t>(std::malloc(16));
  CallArgs A;
  A.Allocated = reinterpret_cast<std::uintptr_t>(*Stream);
  return call("cudaStreamCreate", A);
}

int cudaStreamCreateWithFlags(cudaStream_t *Stream, unsigned Flags) {
  *Stream = reinterpret_cast<cudaStream_t>(std::malloc(16));
  CallArgs A;
  A.Allocated = reinterpret_cast<std::uintptr_t>(*Stream);
  A.Flags = Flags;
  return call("cudaStreamCreateWithFlags", A);
}

int cudaStreamSynchronize(cudaStream_t Stream) {
  return call("cudaStreamSynchronize", onStream(Stream));
}

int cudaDeviceSynchronize() { return call("cudaDeviceSynchronize", {}); }

int cudaEventCreate(cudaEvent_t *Event) {
  *Event = reinterpret_cast<cudaEvent_t>(std::malloc(16));
  return call("cudaEventCreate", {});
}

int cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  RecordedOn[Event] = Stream;
  CallArgs A = onStream(Stream);
  A.Event = reinterpret_cast<std::uintptr_t>(Event);
  return call("cudaEventRecord", A);
}

int cudaEventSynchronize(cudaEvent_t Event) {
  CallArgs A;
  A.Event = reinterpret_cast<std::uintptr_t>(Event);
  return call("cudaEventSynchronize", A);
}

int cudaStreamQuery(cudaStream_t Stream) {
  bool Done;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Done = Finished.count(Stream) > 0;
  }
  return call("cudaStreamQuery", onStream(Stream),
              Done ? 0 : cudaErrorNotReady);
}

int cudaEventQuery(cudaEvent_t Event) {
  bool Done;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Done = Finished.count(RecordedOn[Event]) > 0;
  }
  CallArgs A;
  A.Event = reinterpret_cast<std::uintptr_t>(Event);
  return call("cudaEventQuery", A, Done ? 0 : cudaErrorNotReady);
}

int cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn, void *UserData) {
  // As the injection library does: the race detector's marker goes on the
  // stream first (here, it runs first on the host functions' thread).
  CallArgs A = onStream(Stream);
  A.Context = static_cast<std::uint32_t>(CurrentDevice + 1);
  void *Marker = recorder().hostFunctionMarker(streamKey(A, false), false);
  int Result = call("cudaLaunchHostFunc", onStream(Stream));
  auto Run = [Marker, Fn, UserData] {
    if (Marker)
      RaceDetector::hostFunctionReached(Marker);
    Fn(UserData);
  };
  std::lock_guard<std::mutex> Guard(Lock);
  auto Capture = Capturing.find(Stream);
  if (Capture != Capturing.end())
    Capture->second.push_back(Run);
  else
    HostFunctions.emplace_back(Run);
  return Result;
}

int cudaStreamBeginCapture(cudaStream_t Stream, int) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Capturing[Stream];
  }
  return call("cudaStreamBeginCapture", onStream(Stream));
}

struct FakeGraph {
  std::vector<std::function<void()>> Nodes;
};

int cudaStreamEndCapture(cudaStream_t Stream, cudaGraph_t *Graph) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    *Graph = new FakeGraph{std::move(Capturing[Stream])};
    Capturing.erase(Stream);
  }
  CallArgs A = onStream(Stream);
  A.Allocated = reinterpret_cast<std::uintptr_t>(*Graph);
  return call("cudaStreamEndCapture", A);
}

int cudaGraphInstantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                         unsigned long long) {
  *Exec = Graph;
  CallArgs A;
  A.Allocated = reinterpret_cast<std::uintptr_t>(Graph);
  A.Graph = reinterpret_cast<std::uintptr_t>(Graph);
  return call("cudaGraphInstantiate", A);
}

int cudaGraphLaunch(cudaGraphExec_t Graph, cudaStream_t Stream) {
  busy(Stream);
  CallArgs A = onStream(Stream);
  A.Graph = reinterpret_cast<std::uintptr_t>(Graph);
  int Result = call("cudaGraphLaunch", A);
  // Its host functions, in order, on the calling thread.
  for (const auto &Node : Graph->Nodes)
    Node();
  return Result;
}

void fakeFinish(cudaStream_t Stream) {
  std::lock_guard<std::mutex> Guard(Lock);
  Finished.insert(Stream);
}

void fakeFault() { StickyError = 700; }

void fakeJoinHostFunctions() {
  std::vector<std::thread> Running;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Running.swap(HostFunctions);
  }
  for (std::thread &T : Running)
    T.join();
}
}
