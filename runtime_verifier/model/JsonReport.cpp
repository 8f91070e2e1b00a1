//===- JsonReport.cpp - The machine-readable report (--json) --------------===//

#include "JsonReport.h"
#include "Verdict.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace cuda_async_verify {

// Keys keep the order written here (the schema's order), not sorted.
using json = nlohmann::ordered_json;

namespace {

json number(double X) { return std::isfinite(X) ? json(X) : json(nullptr); }

json toJson(const Summary &S) {
  json Runs = json::array();
  for (double X : S.Samples)
    Runs.push_back(number(X));
  return {{"median", number(S.Median)},
          {"min", number(S.Min)},
          {"max", number(S.Max)},
          {"runs", Runs}};
}

const char *stageKey(Engine E) {
  return E == Engine::HostToDevice ? "h2d"
         : E == Engine::Kernel     ? "kernel"
                                   : "d2h";
}

json toJson(const StageTimes &S) {
  return {{"h2d", number(S.HostToDeviceMs)},
          {"kernel", number(S.KernelMs)},
          {"d2h", number(S.DeviceToHostMs)}};
}

json toJson(const Interval &I) {
  return {{"low", number(I.Low)},
          {"high", number(I.High)},
          {"confidence", number(I.Confidence)},
          {"runs", I.Samples}};
}

json toJson(const Timeline &T) {
  json Activities = json::array();
  for (const Activity &A : T.Activities) {
    json J = {{"engine", engineName(A.Where)},
              {"stream", A.Stream},
              {"start_ms", number(A.StartMs)},
              {"end_ms", number(A.EndMs)}};
    if (A.Where != Engine::Kernel) {
      J["bytes"] = A.Bytes;
      J["host_memory"] = hostMemoryName(A.Memory);
    }
    Activities.push_back(J);
  }
  return Activities;
}

json toJson(const TraceMetrics &M) {
  json Copies = json::object();
  for (const auto &[Memory, Count] : M.CopiesByMemory)
    Copies[hostMemoryName(Memory)] = Count;
  return {{"span_ms", number(M.SpanMs)},
          {"busy_ms",
           {{"h2d", number(M.HostToDeviceBusyMs)},
            {"kernel", number(M.KernelBusyMs)},
            {"d2h", number(M.DeviceToHostBusyMs)}}},
          {"copy_kernel_overlap_ms", number(M.CopyKernelOverlapMs)},
          {"two_engines_ms", number(M.TwoEnginesMs)},
          {"three_engines_ms", number(M.ThreeEnginesMs)},
          {"kernels", M.Kernels},
          {"copies_by_host_memory", Copies}};
}

json toJson(const VariantResult &V) {
  json J = {{"name", V.Name},
            {"role", roleName(V.Kind)},
            {"description", V.Description}};
  if (V.Timed) {
    J["time_ms"] = toJson(V.TimeMs);
    J["wall_ms"] = toJson(V.WallMs);
    J["stages_ms"] = toJson(V.Stages);
    J["serial_ms"] = number(V.SerialMs);
    json Together = json::array();
    for (EngineSet Set = 1; Set <= AllEngines; ++Set)
      if (std::optional<StageTimes> T = V.Profile.together(Set)) {
        json Entry = {{"busy", engineSetName(Set)}};
        for (Engine E : PipelineEngines)
          if (contains(Set, E))
            Entry[stageKey(E)] = number(T->ms(E));
        Together.push_back(Entry);
      }
    J["stages_together_ms"] = Together;
    J["serial_ms"] = number(V.SerialMs);
    J["ideal_ms"] = number(V.IdealMs);
    J["ideal_alone_ms"] = number(V.IdealAloneMs);
    J["overlap_efficiency"] = number(V.Efficiency);
    J["overlap_efficiency_interval"] = toJson(V.EfficiencyInterval);
  }
  if (V.Traced)
    J["trace"] = {{"concurrency", toJson(V.Concurrency)},
                  {"activities", toJson(V.Trace)}};
  if (V.Output)
    J["output"] = {{"correct", V.Output->Correct},
                   {"checked", V.Output->Checked},
                   {"wrong", V.Output->Wrong},
                   {"detail", V.Output->Detail}};
  if (V.Process) {
    json P = {{"message", V.Process->Message}};
    if (V.Process->Signal) {
      P["signal"] = V.Process->Signal;
      P["signal_name"] = V.Process->SignalName;
    } else {
      P["exit_code"] = V.Process->ExitCode;
    }
    J["process"] = P;
  }
  return J;
}

json toJson(const CheckResult &C) {
  json Variants = json::array();
  for (const VariantResult &V : C.Variants)
    Variants.push_back(toJson(V));
  json Speedups = json::array();
  for (const Speedup &S : speedups(C))
    Speedups.push_back({{"fixed", S.Fixed->Name},
                        {"buggy", S.Buggy->Name},
                        {"median", number(S.Range.Median)},
                        {"interval", toJson(S.Range)}});
  return {{"check", C.CheckId},
          {"scenario", C.Scenario},
          {"kind", C.Kind == CheckKind::Overlap ? "overlap" : "correctness"},
          {"attempts", C.Attempts},
          {"verdict",
           {{"result", verdictName(C.Outcome.Kind)},
            {"passed", C.Outcome.passed()},
            {"inconclusive", C.Outcome.inconclusive()},
            {"reason", C.Outcome.Reason}}},
          {"speedups", Speedups},
          {"variants", Variants}};
}

json toJson(const Reproduction &R) {
  json Quantities = json::array();
  for (const Quantity &Q : R.Quantities)
    Quantities.push_back(
        {{"name", Q.Name},
         {"unit", Q.Unit},
         {"predicted", Q.Predicted ? number(*Q.Predicted) : json(nullptr)},
         {"measured", number(Q.Measured)}});
  json Timelines = json::object();
  for (const auto &[Name, T] : R.Timelines)
    Timelines[Name] = toJson(T);
  return {{"seed", R.Seed},
          {"title", R.Title},
          {"quantities", Quantities},
          {"conclusion", R.Conclusion},
          {"timelines", Timelines}};
}

} // namespace

std::string renderJson(const Report &R) {
  const Environment &E = R.Env;
  const Configuration &C = R.Config;
  json Checks = json::array();
  for (const CheckResult &Check : R.Checks)
    Checks.push_back(toJson(Check));
  json Reproductions = json::array();
  for (const Reproduction &Rep : R.Reproductions)
    Reproductions.push_back(toJson(Rep));
  json Root = {{"schema", "cuda-async-verify/2"},
               {"environment",
                {{"gpu", E.Gpu},
                 {"compute_capability", E.ComputeCapability},
                 {"driver", E.DriverVersion},
                 {"cuda_driver_api", E.CudaDriverApi},
                 {"cuda_runtime", E.CudaRuntime},
                 {"cupti", E.Cupti},
                 {"copy_engines", E.CopyEngines},
                 {"host", E.Host},
                 {"date_utc", E.DateUtc}}},
               {"configuration",
                {{"batch_bytes", C.BatchBytes},
                 {"batches", C.Batches},
                 {"streams", C.Streams},
                 {"kernel_intensity", C.Intensity},
                 {"intensity_calibrated", C.IntensityCalibrated},
                 {"warmup_runs", C.Warmup},
                 {"timed_runs", C.Repeats}}},
               {"criteria",
                {{"min_overlap_efficiency", R.Bar.MinEfficiency},
                 {"min_speedup", R.Bar.MinSpeedup}}},
               {"all_passed", R.allPassed()},
               {"passed", R.count(&Verdict::passed)},
               {"inconclusive", R.count(&Verdict::inconclusive)},
               {"failed", R.count(&Verdict::failed)},
               {"checks", Checks},
               {"reproductions", Reproductions}};
  return Root.dump(2) + "\n";
}

} // namespace cuda_async_verify
