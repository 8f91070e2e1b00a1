//===- main.cpp - cuda-async-verify
//-----------------------------------------===//
//
// Runs each cuda-async-lint check's buggy and fixed pipeline variants on the
// GPU and prints whether the fix restores overlap (or correctness). See
// docs/runtime-verifier.md.
//
//===----------------------------------------------------------------------===//

#include "ActivityTrace.h"
#include "Bench.h"
#include "CudaCheck.h"
#include "DeviceEnvironment.h"
#include "JsonReport.h"
#include "Options.h"
#include "TextReport.h"
#include "TimelineSvg.h"
#include "Verdict.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

using namespace cuda_async_verify;

namespace {

constexpr const char *Tool = "cuda-async-verify";

int fail(int Code, const std::string &Message) {
  std::cerr << Tool << ": error: " << Message << "\n";
  return Code;
}

void progress(const std::string &Message) {
  std::cerr << Tool << ": " << Message << "\n";
}

bool wanted(const Options &O, const char *Check) {
  return std::find(O.Checks.begin(), O.Checks.end(), Check) != O.Checks.end();
}

/// Whether \p Path can be written, checked before the run without
/// touching it: a run that fails (no GPU) leaves no empty report behind.
bool checkWritable(const std::string &Path, std::string &Error) {
  if (Path.empty())
    return true;
  std::error_code EC;
  std::filesystem::path P(Path);
  if (std::filesystem::is_directory(P, EC)) {
    Error = "cannot write '" + Path + "': it is a directory";
    return false;
  }
  std::filesystem::path Dir = P.parent_path().empty() ? "." : P.parent_path();
  bool Exists = std::filesystem::exists(P, EC);
  if (::access(Exists ? Path.c_str() : Dir.c_str(), W_OK) != 0) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

/// Writes \p Text to \p Path whole: a temporary file beside it, renamed
/// over it, so a failed write leaves no truncated report.
bool writeOutput(const std::string &Path, const std::string &Text,
                 std::string &Error) {
  if (Path.empty())
    return true;
  std::string Temp = Path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream Out(Temp, std::ios::binary | std::ios::trunc);
    Out << Text;
    if (Out.flush() && std::rename(Temp.c_str(), Path.c_str()) == 0)
      return true;
  }
  Error = "cannot write '" + Path + "': " + std::strerror(errno);
  std::remove(Temp.c_str());
  return false;
}

Report verify(const Options &O) {
  check(cudaSetDevice(O.Device), "cudaSetDevice");
  check(cudaFree(nullptr), "creating the CUDA context");
  ActivityTrace Trace;
  if (O.Trace)
    Trace.initialize();

  Report R;
  R.Env = describeEnvironment(O.Device,
                              O.Trace ? Trace.status() : "off (--no-trace)");
  R.Bar = O.Bar;
  PipelineShape Shape;
  Shape.BatchElements = O.BatchBytes / sizeof(float);
  Shape.Batches = O.Batches;
  Shape.Streams = O.Streams;
  DeviceSide Device(Shape);
  warmUpGpu(Device, 500);
  if (O.Intensity) {
    Shape.Intensity = *O.Intensity;
  } else {
    // Equal stages, as in document 002: the kernel takes as long as one
    // batch's pinned H2D copy.
    StageTimer CopyOnly(Shape, Device);
    double CopyMs = CopyOnly.median(HostAllocation::CudaMallocHost, O.Repeats)
                        .HostToDeviceMs;
    Shape.Intensity = calibrateIntensity(Device, CopyMs);
  }
  R.Config = {O.BatchBytes,
              O.Batches,
              O.Streams,
              Shape.Intensity,
              !O.Intensity.has_value(),
              O.Warmup,
              O.Repeats};
  progress("GPU " + R.Env.Gpu + ", kernel intensity " +
           std::to_string(Shape.Intensity) + ", CUPTI " + R.Env.Cupti);

  StageTimer Stages(Shape, Device);
  MeasureSettings Settings{O.Warmup, O.Repeats,
                           Trace.available() ? &Trace : nullptr, O.OnlyRole};
  Bench B{Shape, Device, Stages, Settings, O.Device, {}};
  auto Run = [&](const char *Id, auto Verify) {
    if (!wanted(O, Id))
      return;
    progress("verifying " + std::string(Id));
    std::vector<CheckResult> Results = Verify(B);
    for (CheckResult &C : Results)
      C.Outcome = judge(C, O.Bar);
    // A measurement that cannot decide (runs spread across the bar, a race
    // that did not happen) is taken again, up to 3 times in all. Timed runs
    // are added to the earlier ones, which narrows the interval; a race
    // seen once has been seen.
    for (size_t I = 0; I < Results.size(); ++I) {
      CheckResult &C = Results[I];
      while (C.Outcome.inconclusive() && C.Attempts < 3 && !O.OnlyRole) {
        progress("measuring " + C.CheckId +
                 " again: " + verdictName(C.Outcome.Kind));
        CheckResult Again = std::move(Verify(B)[I]);
        unsigned Attempts = C.Attempts + 1;
        if (C.Kind == CheckKind::Overlap &&
            Again.Variants.size() == C.Variants.size()) {
          for (size_t V = 0; V < C.Variants.size(); ++V)
            C.Variants[V].append(Again.Variants[V], Shape.Batches,
                                 Shape.Streams);
        } else {
          C = std::move(Again);
        }
        C.Attempts = Attempts;
        C.Outcome = judge(C, O.Bar);
      }
    }
    B.IOs.clear();
    for (CheckResult &C : Results)
      R.Checks.push_back(std::move(C));
  };
  auto One = [](CheckResult (*Verify)(Bench &)) {
    return [Verify](Bench &B) { return std::vector<CheckResult>{Verify(B)}; };
  };
  Run("cuda-async-pageable-copy", One(verifyPageableCopy));
  Run("cuda-async-default-stream", One(verifyDefaultStream));
  Run("cuda-async-sync-in-loop", One(verifySyncInLoop));
  Run("cuda-async-pinned-alloc-in-loop", One(verifyPinnedAllocInLoop));
  Run("cuda-async-unsynchronized-access", verifyUnsynchronizedAccess);
  Run("cuda-async-dealloc-mismatch", One(verifyDeallocMismatch));
  if (O.Reproductions) {
    progress("reproducing background documents 000 and 002");
    R.Reproductions.push_back(reproducePinnedVsPageable(B));
    R.Reproductions.push_back(reproduceThreeStagePipeline(B));
  }
  return R;
}

} // namespace

int main(int Argc, char **Argv) {
  ParseResult Parsed =
      parseOptions(std::vector<std::string>(Argv + 1, Argv + Argc));
  if (!Parsed.Error.empty())
    return fail(ExitUsageError, Parsed.Error);
  const Options &O = Parsed.Parsed;
  if (O.Help) {
    std::cout << usageText();
    return ExitPassed;
  }
  if (O.Version) {
    std::cout << Tool << " " << CUDA_ASYNC_VERIFY_VERSION << "\n";
    return ExitPassed;
  }
  if (O.ListChecks) {
    for (const std::string &Id : verifiedChecks())
      std::cout << Id << "\n";
    return ExitPassed;
  }
  if (!O.ChildRelease.empty())
    return runReleaseCase(O.ChildRelease, O.Device);

  std::string Error;
  if (!checkWritable(O.JsonPath, Error) ||
      !checkWritable(O.TimelinePath, Error))
    return fail(ExitUsageError, Error);

  int Devices = 0;
  if (cudaError_t E = cudaGetDeviceCount(&Devices); E != cudaSuccess) {
    // The runtime's words for a machine without the driver ("driver
    // version is insufficient") do not say that it has none.
    void *Driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    const char *Why = Driver ? nullptr : ::dlerror();
    if (Driver)
      ::dlclose(Driver);
    return fail(ExitCudaError,
                std::string("no usable CUDA device: ") +
                    (Driver ? ""
                            : "this machine has no CUDA driver (" +
                                  std::string(Why ? Why : "libcuda.so.1") +
                                  "); ") +
                    cudaGetErrorString(E) + " (" + cudaGetErrorName(E) + ")");
  }
  if (O.Device >= Devices)
    return fail(ExitUsageError, "--device " + std::to_string(O.Device) +
                                    " does not exist (" +
                                    std::to_string(Devices) + " devices)");
  Report R;
  try {
    R = verify(O);
  } catch (const std::exception &E) {
    return fail(ExitCudaError, E.what());
  }
  std::cout << renderText(R);
  if (!writeOutput(O.JsonPath, O.JsonPath.empty() ? "" : renderJson(R),
                   Error) ||
      !writeOutput(O.TimelinePath,
                   O.TimelinePath.empty() ? "" : renderTimelineSvg(R), Error))
    return fail(ExitUsageError, Error);
  // --variants ran one side of each check: there is nothing to judge, and
  // so no verdict to fail.
  if (O.OnlyRole)
    return ExitPassed;
  if (R.count(&Verdict::failed))
    return ExitVerdictFailed;
  return R.allPassed() ? ExitPassed : ExitInconclusive;
}
