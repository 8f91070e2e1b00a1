//===- Injection.cpp - The CUPTI injection library of cuda-async-trace ----===//
//
// Loaded into the user's program by the CUDA driver (CUDA_INJECTION64_PATH),
// which calls InitializeInjection when the program first initializes CUDA.
// It subscribes to CUPTI's callbacks for the calls the catalog knows and to
// the activity records of copies, memsets and kernels, keeps per call site
// what they did (recorder/SiteTable), and writes the raw trace when the
// program exits (or dies of a signal) to $CUDA_ASYNC_TRACE_OUTPUT. With
// $CUDA_ASYNC_TRACE_RACES=1 (cuda-async-trace --races) a race detector
// protects the host side of each async copy while it is in flight
// (recorder/RaceDetector).
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"
#include "Recorder.h"
#include "SignalHandlers.h"
#include "TracedCalls.h"

#include <cupti.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <unistd.h>
#include <vector>

using namespace cuda_async_trace;

namespace {

Recorder *Recording;
std::string *OutputPattern;
CUpti_SubscriberHandle Subscriber;

constexpr std::size_t ActivityBufferBytes = 8u << 20;

/// A traced call in progress on this thread.
struct ActiveCall {
  const TracedCall *Call;
  std::uint32_t Site;
  std::uint64_t Start;
  /// A kernel launch's parameter words, read at the driver's launch (the
  /// runtime's own, for a runtime launch).
  KernelWords Kernel;
};
thread_local std::vector<ActiveCall> Active;
/// Runtime API calls in progress on this thread: driver calls made inside
/// one are the runtime's own, not the user's.
thread_local int RuntimeDepth = 0;
/// The tracer's own CUDA call in progress on this thread (the race
/// detector's marker): not the program's, not traced.
thread_local bool InOwnCall = false;

std::uint64_t nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<std::uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(T.tv_nsec);
}

/// Marks in CUPTI's per-call correlation slot, from entry to exit.
enum : std::uint64_t { Untraced = 0, Traced = 1 };

/// Whether the driver says \p Stream is capturing into a graph. The
/// legacy and per-thread handles are not asked: during a global-mode
/// capture, a query of the legacy stream is itself an error.
bool driverSaysCapturing(std::uintptr_t Stream) {
  if (Stream <= 2)
    return false;
  CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_NONE;
  InOwnCall = true;
  CUresult R = cuStreamIsCapturing(reinterpret_cast<CUstream>(Stream), &Status);
  InOwnCall = false;
  return R != CUDA_SUCCESS || Status != CU_STREAM_CAPTURE_STATUS_NONE;
}

/// Before the program's host function goes on its stream, the race
/// detector's marker goes there: it runs first, once the work before both
/// is finished, and lifts that work's protection.
void enqueueMarker(const TracedCall &Call, const CUpti_CallbackData &CB) {
  CallArgs Args = readArguments(Call, CB.functionParams, false);
  Args.Context = CB.contextUid;
  void *Marker = Recording->hostFunctionMarker(
      streamKey(Args, Call.PerThread), driverSaysCapturing(Args.Stream));
  if (!Marker)
    return;
  InOwnCall = true;
  CUresult R = cuLaunchHostFunc(reinterpret_cast<CUstream>(Args.Stream),
                                RaceDetector::hostFunctionReached, Marker);
  InOwnCall = false;
  if (R != CUDA_SUCCESS)
    RaceDetector::hostFunctionReached(Marker);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Cbid, const void *Data) {
  if (InOwnCall)
    return;
  const auto *CB = static_cast<const CUpti_CallbackData *>(Data);
  bool Enter = CB->callbackSite == CUPTI_API_ENTER;
  const TracedCall *Call = tracedCall(Domain, Cbid);
  if (Enter) {
    *CB->correlationData = Untraced;
    bool Nested = Domain == CUPTI_CB_DOMAIN_DRIVER_API && RuntimeDepth > 0;
    if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
      ++RuntimeDepth;
    if (!Call)
      return;
    if (Nested) {
      // The runtime call's own driver call: its GPU work is the runtime
      // call's, and so are the parameters it hands the driver.
      if (!Active.empty()) {
        Recording->sites().addCorrelation(CB->correlationId,
                                          Active.back().Site);
        if (launchesKernel(Domain, Cbid))
          Active.back().Kernel =
              readKernelWords(Cbid, CB->functionParams, InOwnCall);
      }
      return;
    }
    std::uint32_t Site = Recording->enter(Call->Row, CB->functionName, 0);
    if (Recording->races() && Call->Row->Kind == CallKind::HostFunc)
      enqueueMarker(*Call, *CB);
    Active.push_back({Call, Site, nowNs(), {}});
    if (launchesKernel(Domain, Cbid))
      Active.back().Kernel =
          readKernelWords(Cbid, CB->functionParams, InOwnCall);
    *CB->correlationData = Traced;
    return;
  }
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API && RuntimeDepth > 0)
    --RuntimeDepth;
  if (*CB->correlationData != Traced || Active.empty())
    return;
  ActiveCall A = Active.back();
  Active.pop_back();
  std::uint64_t HostNs = nowNs() - A.Start;
  int Error = 0;
  if (CB->functionReturnValue)
    Error = Domain == CUPTI_CB_DOMAIN_RUNTIME_API
                ? static_cast<int>(
                      *static_cast<cudaError_t *>(CB->functionReturnValue))
                : static_cast<int>(
                      *static_cast<CUresult *>(CB->functionReturnValue));
  CallArgs Args = readArguments(*A.Call, CB->functionParams, true);
  // The context the call ran in: a runtime call's first one creates it.
  Args.Context = CB->contextUid;
  Args.Kernel = A.Kernel;
  // A program that took SIGSEGV over ends race detection (said once).
  if (RaceDetector *Races = Recording->races())
    Races->checkHandler(signalDispatcher);
  Recording->sites().recordCall(A.Site, Args, A.Call->PerThread, HostNs, Error,
                                CB->correlationId);
}

void CUPTIAPI bufferRequested(std::uint8_t **Buffer, std::size_t *Size,
                              std::size_t *MaxRecords) {
  // CUPTI wants 8-byte aligned buffers.
  *Buffer =
      static_cast<std::uint8_t *>(std::aligned_alloc(8, ActivityBufferBytes));
  *Size = *Buffer ? ActivityBufferBytes : 0;
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext Context, std::uint32_t StreamId,
                              std::uint8_t *Buffer, std::size_t,
                              std::size_t ValidSize) {
  CUpti_Activity *Record = nullptr;
  while (cuptiActivityGetNextRecord(Buffer, ValidSize, &Record) ==
         CUPTI_SUCCESS) {
    switch (Record->kind) {
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      auto *Copy = reinterpret_cast<CUpti_ActivityMemcpy6 *>(Record);
      Recording->sites().recordActivity(
          Copy->correlationId, Copy->end - Copy->start, Copy->bytes, true,
          static_cast<MemoryKind>(Copy->srcKind),
          static_cast<MemoryKind>(Copy->dstKind), Copy->end);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      auto *Set = reinterpret_cast<CUpti_ActivityMemset4 *>(Record);
      Recording->sites().recordActivity(
          Set->correlationId, Set->end - Set->start, Set->bytes, false,
          MemoryKind::Unknown, MemoryKind::Unknown);
      break;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      auto *Kernel = reinterpret_cast<CUpti_ActivityKernel10 *>(Record);
      Recording->sites().recordActivity(
          Kernel->correlationId, Kernel->end - Kernel->start, 0, false,
          MemoryKind::Unknown, MemoryKind::Unknown);
      break;
    }
    default:
      break;
    }
  }
  std::size_t Dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(Context, StreamId, &Dropped) ==
          CUPTI_SUCCESS &&
      Dropped)
    Recording->sites().recordDroppedActivity(Dropped);
  std::free(Buffer);
}

void atExit() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (!Recording->write(*OutputPattern))
    std::fprintf(stderr, "cuda-async-trace: cannot write '%s': %s\n",
                 expandPid(*OutputPattern, getpid()).c_str(),
                 std::strerror(errno));
}

bool check(CUptiResult Code, const char *What) {
  if (Code == CUPTI_SUCCESS)
    return true;
  const char *Text = nullptr;
  cuptiGetResultString(Code, &Text);
  std::fprintf(stderr, "cuda-async-trace: %s failed: %s\n", What,
               Text ? Text : "unknown CUPTI error");
  return false;
}

} // namespace

/// CUPTI's injection entry point. Returns 1 on success.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  static bool Initialized = false;
  if (Initialized)
    return 1;
  Initialized = true;
  const char *Output = std::getenv("CUDA_ASYNC_TRACE_OUTPUT");
  OutputPattern = new std::string(
      Output && *Output ? Output : "cuda-async-trace.%p.raw.json");
  std::uint32_t Version = 0;
  cuptiGetVersion(&Version);
  std::optional<RaceCoverage> Races =
      raceCoverageFromEnv(std::getenv("CUDA_ASYNC_TRACE_RACES"));
  // The activity records' clock, against CLOCK_MONOTONIC: a race's access
  // time is read with the latter (in a signal handler) and compared with
  // its copy's end.
  std::uint64_t CuptiNow = 0;
  cuptiGetTimestamp(&CuptiNow);
  auto Offset = static_cast<std::int64_t>(CuptiNow - nowNs());
  // Never freed: exit handlers and crash handlers may still use it.
  Recording =
      new Recorder("CUPTI " + std::to_string(Version), Races.has_value(),
                   Offset, Races.value_or(RaceCoverage::Ends));

  if (!check(cuptiSubscribe(&Subscriber, onCallback, nullptr),
             "cuptiSubscribe"))
    return 0;
  // Every runtime call: driver calls inside any of them are the runtime's.
  check(cuptiEnableDomain(1, Subscriber, CUPTI_CB_DOMAIN_RUNTIME_API),
        "cuptiEnableDomain (runtime)");
  for (const TracedCall *C = tracedCallsBegin(); C != tracedCallsEnd(); ++C)
    if (C->Domain == CUPTI_CB_DOMAIN_DRIVER_API)
      cuptiEnableCallback(1, Subscriber, C->Domain, C->Cbid);

  check(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted),
        "cuptiActivityRegisterCallbacks");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY),
        "cuptiActivityEnable (memcpy)");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET),
        "cuptiActivityEnable (memset)");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
        "cuptiActivityEnable (kernel)");

  std::atexit(atExit);
  installSignalHandlers(Recording, OutputPattern);
  // A forked child has its own copy of the pages, and no CUDA context of
  // its parent's: nothing of its parent's is in flight for it.
  if (Races)
    pthread_atfork(nullptr, nullptr, [] {
      if (RaceDetector *R = Recording->races())
        R->forkedChild();
    });
  return 1;
}
