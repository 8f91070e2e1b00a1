//===- RuntimeFindings.cpp - The checks a run itself shows ----------------===//

#include "RuntimeFindings.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace cuda_async_trace {

std::string cudaErrorName(int Code) {
  switch (Code) {
  case 1:
    return "cudaErrorInvalidValue";
  case 2:
    return "cudaErrorMemoryAllocation";
  case 3:
    return "cudaErrorInitializationError";
  case 17:
    return "cudaErrorInvalidDevicePointer";
  case 400:
    return "cudaErrorInvalidResourceHandle";
  case 700:
    return "cudaErrorIllegalAddress";
  case 712:
    return "cudaErrorHostMemoryAlreadyRegistered";
  case 713:
    return "cudaErrorHostMemoryNotRegistered";
  default:
    return "error " + std::to_string(Code);
  }
}

static std::string calls(std::uint64_t N) {
  return std::to_string(N) + (N == 1 ? " call" : " calls");
}

std::vector<RuntimeFinding> runtimeFindings(const Trace &T) {
  std::vector<RuntimeFinding> Out;
  auto Add = [&Out](const TraceSite &S, llvm::StringRef Check,
                    std::string Message, std::uint64_t Calls,
                    std::uint64_t Bytes, std::uint64_t HostNs) {
    RuntimeFinding F;
    F.CheckId = ("cuda-async-" + Check).str();
    F.Location = S.Location;
    F.Api = S.Api;
    F.Message = std::move(Message);
    F.Calls = Calls;
    F.Bytes = Bytes;
    F.HostNs = HostNs;
    Out.push_back(std::move(F));
  };

  for (const TraceSite &S : T.Sites) {
    if (!S.Location.known())
      continue;
    if (S.Kind == "copy" && S.Async && S.PageableCopies)
      Add(S, "pageable-copy",
          "'" + S.Api + "' copied pageable host memory " +
              formatTimes(S.PageableCopies) + " (" +
              formatBytes(S.PageableBytes) +
              "): the driver staged each copy and the host waited " +
              formatDuration(S.HostNs) + " in " + calls(S.Calls),
          S.PageableCopies, S.PageableBytes, S.HostNs);
    // A release its arguments failed: not one that failed because an
    // earlier fault broke the context.
    if (S.Kind == "release" && S.ArgumentFailures)
      Add(S, "dealloc-mismatch",
          "'" + S.Api + "' failed in " + std::to_string(S.ArgumentFailures) +
              " of " + calls(S.Calls) + " (" + cudaErrorName(S.FirstError) +
              "): it was given memory it does not release",
          S.ArgumentFailures, 0, S.HostNs);
    if (S.RepeatedSyncsOfOwnWork)
      Add(S, "sync-in-loop",
          "'" + S.Api +
              "' waited for work issued since its own previous "
              "call " +
              formatTimes(S.RepeatedSyncsOfOwnWork) +
              ": each iteration waits for its own work, " +
              formatDuration(S.RepeatedSyncBlockedNs) + " of host time",
          S.RepeatedSyncsOfOwnWork, 0, S.RepeatedSyncBlockedNs);
    if (S.LegacySerialized)
      Add(S, "default-stream",
          "'" + S.Api +
              "' issued work on the legacy default stream that held back "
              "work issued after it on created streams " +
              formatTimes(S.LegacySerialized) +
              ": that work waited for it instead of running beside it",
          S.LegacySerialized, 0, 0);
    if (S.RepinnedInLoop)
      Add(S, "pinned-alloc-in-loop",
          "'" + S.Api + "' pinned memory again " +
              formatTimes(S.RepinnedInLoop) +
              " after using or releasing what it pinned before, " +
              formatDuration(S.RepinnedNs) +
              " of host time: pin once and reuse the buffer",
          S.RepinnedInLoop, 0, S.RepinnedNs);
    if (S.Kind == "register" && S.LeftRegistered)
      Add(S, "host-register-leak",
          std::to_string(S.LeftRegistered) +
              (S.LeftRegistered == 1 ? " registration" : " registrations") +
              " made here by '" + S.Api + "' " +
              (S.LeftRegistered == 1 ? "was" : "were") +
              " never unregistered before the program ended",
          S.LeftRegistered, 0, 0);
  }

  // The host touched a copy's host side before it knew the copy finished.
  for (const TraceRace &R : T.Races) {
    RuntimeFinding F;
    F.CheckId = "cuda-async-unsynchronized-access";
    F.Location = R.Access;
    F.Api = R.CopyApi;
    F.Related = R.Copy;
    F.RelatedMessage = "the async copy it raced with was issued here";
    std::string When;
    if (R.TimeLeftKnown && R.TimeLeftNs >= 0)
      When = ", " + formatDuration(static_cast<std::uint64_t>(R.TimeLeftNs)) +
             " before the GPU finished it";
    else if (R.TimeLeftKnown)
      When = " (the GPU had finished it " +
             formatDuration(static_cast<std::uint64_t>(-R.TimeLeftNs)) +
             " earlier, but nothing had told the host)";
    std::string CopyAt =
        R.Copy.known()
            ? " issued at " + llvm::sys::path::filename(R.Copy.File).str() +
                  ":" + std::to_string(R.Copy.Line)
            : std::string();
    F.Message =
        std::string("the host ") + (R.Write ? "wrote" : "read") + " the " +
        (R.DeviceToHost ? "destination" : "source") + " of a " +
        formatBytes(R.CopyBytes) + " " +
        (R.DeviceToHost ? "device-to-host" : "host-to-device") + " '" +
        R.CopyApi + "'" + CopyAt + " while it was in flight (at offset " +
        std::to_string(R.Offset) + ")" + When + ", " + formatTimes(R.Count) +
        ": synchronize the copy's stream, or an event recorded after "
        "it, first";
    F.Calls = R.Count;
    F.Bytes = R.CopyBytes;
    Out.push_back(std::move(F));
  }

  // A crash inside a release: releasing memory the wrong way corrupts the
  // heap (free() of cudaMallocHost memory, say).
  for (const TracedProcess &P : T.Processes) {
    if (!P.Signal || P.CrashedIn.empty() || !P.Crash.known())
      continue;
    RuntimeFinding F;
    F.CheckId = "cuda-async-dealloc-mismatch";
    F.Location = P.Crash;
    F.Api = P.CrashedIn;
    F.Message = "the program died of signal " + std::to_string(P.Signal) +
                " inside '" + P.CrashedIn +
                "' called here: memory released by the wrong function "
                "corrupts the heap";
    F.Calls = 1;
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace cuda_async_trace
