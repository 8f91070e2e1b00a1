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
#include <fstream>
#include <iostream>

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

/// Opens an output file before any GPU work, so a bad path fails fast.
bool openOutput(const std::string &Path, std::ofstream &Out,
                std::string &Error) {
  if (Path.empty())
    return true;
  Out.open(Path, std::ios::binary | std::ios::trunc);
  if (!Out)
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
  return static_cast<bool>(Out);
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
    // A busy spell of a shared machine spreads the fixed variants' runs:
    // measure such a check again (up to 3 times in all) and keep the
    // quietest measurement, whatever its verdict.
    for (size_t I = 0; I < Results.size(); ++I) {
      unsigned Attempts = 1;
      while (fixedSpread(Results[I]) > NoisySpread && Attempts < 3) {
        ++Attempts;
        progress(
            "measuring " + std::string(Id) + " again: its runs spread " +
            std::to_string(static_cast<int>(100 * fixedSpread(Results[I]))) +
            "%");
        CheckResult Again = std::move(Verify(B)[I]);
        if (fixedSpread(Again) < fixedSpread(Results[I]))
          Results[I] = std::move(Again);
      }
      Results[I].Attempts = Attempts;
    }
    B.IOs.clear();
    for (CheckResult &C : Results) {
      C.Outcome = judge(C, O.Bar);
      R.Checks.push_back(std::move(C));
    }
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

  std::ofstream Json, Svg;
  std::string Error;
  if (!openOutput(O.JsonPath, Json, Error) ||
      !openOutput(O.TimelinePath, Svg, Error))
    return fail(ExitUsageError, Error);

  int Devices = 0;
  if (cudaError_t E = cudaGetDeviceCount(&Devices); E != cudaSuccess)
    return fail(ExitCudaError, std::string("no usable CUDA device: ") +
                                   cudaGetErrorString(E) + " (" +
                                   cudaGetErrorName(E) + ")");
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
  if (Json.is_open())
    Json << renderJson(R);
  if (Svg.is_open())
    Svg << renderTimelineSvg(R);
  if ((Json.is_open() && !Json.flush()) || (Svg.is_open() && !Svg.flush()))
    return fail(ExitUsageError,
                "writing the report to '" +
                    (O.JsonPath.empty() ? O.TimelinePath : O.JsonPath) +
                    "' failed");
  // --variants ran one side of each check: there is nothing to judge, and
  // so no verdict to fail.
  if (O.OnlyRole)
    return ExitPassed;
  return R.allPassed() ? ExitPassed : ExitVerdictFailed;
}
