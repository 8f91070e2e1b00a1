//===- DeallocMismatch.cpp - Releasing pinned memory wrongly --------------===//
//
// cuda-async-dealloc-mismatch: each release runs in a child process (the
// verifier re-executed with --child-release), because the wrong ones can
// abort the process or poison the CUDA context. The parent reports how each
// child ended.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <cuda_runtime_api.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace cuda_async_verify {

namespace {

enum class Release { Free, CudaFree, CudaFreeHost };

struct ReleaseCase {
  const char *Id;
  Role Kind;
  const char *Description;
  bool AllocatePinned;
  Release How;
};

const ReleaseCase Cases[] = {
    {"free-on-cudaMallocHost", Role::Buggy,
     "free() on memory from cudaMallocHost", true, Release::Free},
    {"cudaFree-on-cudaMallocHost", Role::Buggy,
     "cudaFree() on memory from cudaMallocHost", true, Release::CudaFree},
    {"cudaFreeHost-on-malloc", Role::Buggy,
     "cudaFreeHost() on memory from malloc", false, Release::CudaFreeHost},
    {"cudaFreeHost-on-cudaMallocHost", Role::Fixed,
     "cudaFreeHost() on memory from cudaMallocHost", true,
     Release::CudaFreeHost},
};

/// Exit codes of a child; the parent maps them back to words.
enum ChildExit : int {
  ChildReleased = 0,
  ChildReleaseFailed = 10,
  ChildContextBroken = 11,
  ChildSetupFailed = 12,
  ChildUnknownCase = 13,
};

int report(int Code, const std::string &Message) {
  std::printf("%s\n", Message.c_str());
  std::fflush(stdout);
  return Code;
}

std::string describe(const char *Call, cudaError_t Code) {
  return std::string(Call) + " returned " + cudaGetErrorName(Code) + " (" +
         cudaGetErrorString(Code) + ")";
}

/// The last non-empty line of a child's output.
std::string lastLine(const std::string &Text) {
  size_t End = Text.find_last_not_of("\n\r ");
  if (End == std::string::npos)
    return "";
  size_t Start = Text.rfind('\n', End);
  return Text.substr(Start == std::string::npos ? 0 : Start + 1,
                     End - (Start == std::string::npos ? 0 : Start + 1) + 1);
}

VariantResult runChild(const ReleaseCase &Case, int DeviceOrdinal) {
  VariantResult V;
  V.Name = Case.Id;
  V.Kind = Case.Kind;
  V.Description = Case.Description;
  ProcessOutcome P;
  int Pipe[2];
  if (pipe(Pipe) != 0) {
    P.ExitCode = -1;
    P.Message = std::string("pipe: ") + std::strerror(errno);
  } else if (pid_t Child = fork(); Child == 0) {
    // Only async-signal-safe calls between fork and exec.
    dup2(Pipe[1], STDOUT_FILENO);
    dup2(Pipe[1], STDERR_FILENO);
    close(Pipe[0]);
    close(Pipe[1]);
    std::string Device = std::to_string(DeviceOrdinal);
    const char *Argv[] = {"cuda-async-verify", "--child-release", Case.Id,
                          "--device",          Device.c_str(),    nullptr};
    execv("/proc/self/exe", const_cast<char *const *>(Argv));
    _exit(127);
  } else {
    close(Pipe[1]);
    std::string Output;
    char Chunk[4096];
    ssize_t Got;
    while ((Got = read(Pipe[0], Chunk, sizeof(Chunk))) > 0)
      Output.append(Chunk, static_cast<size_t>(Got));
    close(Pipe[0]);
    int Status = 0;
    waitpid(Child, &Status, 0);
    P.Message = lastLine(Output);
    if (WIFSIGNALED(Status)) {
      P.ExitCode = -1;
      P.Signal = WTERMSIG(Status);
      const char *Abbrev = sigabbrev_np(P.Signal);
      P.SignalName = Abbrev ? std::string("SIG") + Abbrev
                            : "signal " + std::to_string(P.Signal);
    } else {
      P.ExitCode = WEXITSTATUS(Status);
    }
  }
  Correctness C;
  C.Correct = P.Signal == 0 && P.ExitCode == ChildReleased;
  if (P.Signal)
    C.Detail = "child killed by " + P.SignalName +
               (P.Message.empty() ? "" : ": " + P.Message);
  else
    C.Detail = (C.Correct ? "released cleanly"
                          : "child exited with " + std::to_string(P.ExitCode)) +
               (P.Message.empty() || C.Correct ? "" : ": " + P.Message);
  V.Output = C;
  V.Process = P;
  return V;
}

} // namespace

int runReleaseCase(const std::string &Id, int DeviceOrdinal) {
  const ReleaseCase *Case = nullptr;
  for (const ReleaseCase &C : Cases)
    if (Id == C.Id)
      Case = &C;
  if (!Case)
    return report(ChildUnknownCase, "unknown release case '" + Id + "'");
  if (cudaError_t E = cudaSetDevice(DeviceOrdinal); E != cudaSuccess)
    return report(ChildSetupFailed, describe("cudaSetDevice", E));
  const size_t Bytes = 1 << 20;
  void *Memory = nullptr;
  if (Case->AllocatePinned) {
    if (cudaError_t E = cudaMallocHost(&Memory, Bytes); E != cudaSuccess)
      return report(ChildSetupFailed, describe("cudaMallocHost", E));
  } else if (!(Memory = std::malloc(Bytes))) {
    return report(ChildSetupFailed, "malloc failed");
  }
  std::memset(Memory, 1, Bytes);

  switch (Case->How) {
  case Release::Free:
    // glibc may abort here: the pointer is not from its heap.
    std::free(Memory);
    break;
  case Release::CudaFree:
    if (cudaError_t E = cudaFree(Memory); E != cudaSuccess)
      return report(ChildReleaseFailed, describe("cudaFree", E));
    break;
  case Release::CudaFreeHost:
    if (cudaError_t E = cudaFreeHost(Memory); E != cudaSuccess)
      return report(ChildReleaseFailed, describe("cudaFreeHost", E));
    break;
  }
  // A release that "worked" must also leave the context usable.
  if (cudaError_t E = cudaDeviceSynchronize(); E != cudaSuccess)
    return report(ChildContextBroken, describe("cudaDeviceSynchronize", E));
  return report(ChildReleased, "released without an error");
}

CheckResult verifyDeallocMismatch(Bench &B) {
  CheckResult C;
  C.CheckId = "cuda-async-dealloc-mismatch";
  C.Kind = CheckKind::Correctness;
  for (const ReleaseCase &Case : Cases)
    if (!B.Settings.OnlyRole || Case.Kind == *B.Settings.OnlyRole)
      C.Variants.push_back(runChild(Case, B.DeviceOrdinal));
  return C;
}

} // namespace cuda_async_verify
