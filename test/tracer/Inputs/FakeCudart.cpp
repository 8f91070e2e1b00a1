// The stand-in runtime (FakeCudart.h). Built as libcudart_fake.so: the
// tracer passes over frames in libcudart*, as it does the real runtime's.
#include "FakeCudart.h"

#include "CrashHandler.h"
#include "Recorder.h"

#include <cstdlib>
#include <map>
#include <sys/mman.h>

using namespace cuda_async_trace;

namespace {

std::string *Pattern;
Recorder *Record;
std::map<const char *, std::size_t> Pinned; // start -> size
std::uint64_t Correlation = 0;

Recorder &recorder() {
  if (!Record) {
    const char *Out = std::getenv("CUDA_ASYNC_TRACE_OUTPUT");
    Pattern = new std::string(Out ? Out : "fake.%p.raw.json");
    Record = new Recorder("fake CUDA runtime");
    installCrashHandlers(Record, Pattern);
    std::atexit([] { Record->write(*Pattern); });
  }
  return *Record;
}

MemoryKind hostKind(const void *P) {
  auto *C = static_cast<const char *>(P);
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
int call(const char *Name, CallArgs Args, int Error = 0,
         const void *Host = nullptr, bool ToDevice = true) {
  const CatalogRow *Row = catalogRow(Name);
  std::uint32_t Site = recorder().enter(Row, Name, 1);
  std::uint64_t Id = ++Correlation;
  recorder().sites().recordCall(Site, Args, false, 1000, Error, Id);
  if (!Error && Row->Kind == CallKind::Copy) {
    MemoryKind H = hostKind(Host);
    recorder().sites().recordActivity(Id, 500, Args.Size, true,
                                      ToDevice ? H : MemoryKind::Device,
                                      ToDevice ? MemoryKind::Device : H);
  }
  return Error;
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
  Pinned[static_cast<const char *>(P)] = Size;
  CallArgs A;
  A.HasSize = true;
  A.Size = Size;
  A.Allocated = reinterpret_cast<std::uintptr_t>(P);
  return call("cudaMallocHost", A);
}

int cudaFreeHost(void *Ptr) {
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  auto It = Pinned.find(static_cast<const char *>(Ptr));
  if (It == Pinned.end())
    return call("cudaFreeHost", A, /*cudaErrorInvalidValue*/ 1);
  munmap(Ptr, It->second);
  Pinned.erase(It);
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

int cudaHostRegister(void *Ptr, size_t Size, unsigned) {
  Pinned[static_cast<const char *>(Ptr)] = Size;
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  A.HasSize = true;
  A.Size = Size;
  return call("cudaHostRegister", A);
}

int cudaHostUnregister(void *Ptr) {
  Pinned.erase(static_cast<const char *>(Ptr));
  CallArgs A;
  A.Ptr = reinterpret_cast<std::uintptr_t>(Ptr);
  return call("cudaHostUnregister", A);
}

int cudaMemcpyAsync(void *Dst, const void *Src, size_t Size,
                    cudaMemcpyKind Kind, cudaStream_t Stream) {
  CallArgs A = onStream(Stream);
  A.HasSize = true;
  A.Size = Size;
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
  CallArgs A = onStream(Stream);
  A.Event = reinterpret_cast<std::uintptr_t>(Event);
  return call("cudaEventRecord", A);
}

int cudaEventSynchronize(cudaEvent_t Event) {
  CallArgs A;
  A.Event = reinterpret_cast<std::uintptr_t>(Event);
  return call("cudaEventSynchronize", A);
}
}
