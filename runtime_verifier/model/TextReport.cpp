//===- TextReport.cpp - The human table printed on stdout -----------------===//

#include "TextReport.h"
#include "Format.h"
#include "Verdict.h"

#include <cmath>
#include <cstdio>

namespace cuda_async_verify {

namespace {

std::string percent(double X) {
  return std::isfinite(X) ? format("%.0f%%", 100 * X) : "n/a";
}

std::string copies(const VariantResult &V) {
  if (!V.Traced)
    return "-";
  std::string Text;
  for (const auto &[Memory, Count] : V.Concurrency.CopiesByMemory)
    Text += (Text.empty() ? "" : " ") +
            format("%u %s", Count, hostMemoryName(Memory));
  return Text.empty() ? "none" : Text;
}

std::string output(const VariantResult &V) {
  if (!V.Output)
    return "-";
  return V.Output->Correct ? "right" : "WRONG";
}

void renderOverlap(const CheckResult &C, std::string &Out) {
  Out += format("  %-22s %-5s %-28s %8s %-20s %7s %7s %5s %12s  %-16s %s\n",
                "variant", "role", "GPU span ms: median (range)", "wall ms",
                "stages ms: h2d/k/d2h", "serial", "ideal", "eff.",
                "copy||kernel", "copies (CUPTI)", "output");
  for (const VariantResult &V : C.Variants) {
    std::string Time =
        format("%.3f (%.3f-%.3f)", V.TimeMs.Median, V.TimeMs.Min, V.TimeMs.Max);
    std::string Stages = format("%.3f/%.3f/%.3f", V.Stages.HostToDeviceMs,
                                V.Stages.KernelMs, V.Stages.DeviceToHostMs);
    std::string Overlap =
        V.Traced ? format("%.3f ms", V.Concurrency.CopyKernelOverlapMs) : "-";
    Out += format(
        "  %-22s %-5s %-28s %8.3f %-20s %7.3f %7.3f %5s %12s  %-16s %s\n",
        V.Name.c_str(), roleName(V.Kind), Time.c_str(), V.WallMs.Median,
        Stages.c_str(), V.SerialMs, V.IdealMs, percent(V.Efficiency).c_str(),
        Overlap.c_str(), copies(V).c_str(), output(V).c_str());
  }
  // What decides the verdict: the intervals, and the stages as this machine
  // runs them together (the ideal's basis).
  for (const VariantResult &V : C.Variants) {
    if (V.Kind != Role::Fixed || !V.Timed)
      continue;
    const Interval &I = V.EfficiencyInterval;
    Out += format("  %s: efficiency %s (%.0f%% interval %s-%s, %u runs)",
                  V.Name.c_str(), percent(V.Efficiency).c_str(),
                  100 * I.Confidence, percent(I.Low).c_str(),
                  percent(I.High).c_str(), I.Samples);
    if (std::optional<StageTimes> All = V.Profile.together(AllEngines))
      Out += format("; stages together %.3f/%.3f/%.3f ms, ideal %.3f ms "
                    "(%.3f ms from the stages alone)",
                    All->HostToDeviceMs, All->KernelMs, All->DeviceToHostMs,
                    V.IdealMs, V.IdealAloneMs);
    Out += "\n";
  }
  for (const Speedup &S : speedups(C))
    Out += format("  %s: %.2fx as fast as %s (%.0f%% interval %.2fx-%.2fx)\n",
                  S.Fixed->Name.c_str(), S.Range.Median, S.Buggy->Name.c_str(),
                  100 * S.Range.Confidence, S.Range.Low, S.Range.High);
}

void renderCorrectness(const CheckResult &C, std::string &Out) {
  Out += format("  %-30s %-5s %s\n", "variant", "role", "outcome");
  for (const VariantResult &V : C.Variants) {
    std::string Outcome = V.Output ? V.Output->Detail : "-";
    Out += format("  %-30s %-5s %s\n", V.Name.c_str(), roleName(V.Kind),
                  Outcome.c_str());
  }
}

std::string value(double X, const std::string &Unit) {
  if (Unit == "x")
    return format("%.2fx", X);
  return format("%.3f %s", X, Unit.c_str());
}

} // namespace

std::string renderText(const Report &R) {
  const Environment &E = R.Env;
  const Configuration &C = R.Config;
  std::string Out;
  Out +=
      format("GPU: %s (compute %s, %d copy engines), driver %s, CUDA "
             "runtime %s, CUPTI %s\n",
             E.Gpu.c_str(), E.ComputeCapability.c_str(), E.CopyEngines,
             E.DriverVersion.c_str(), E.CudaRuntime.c_str(), E.Cupti.c_str());
  Out += format("pipeline: %u batches of %.1f MiB over %u streams, kernel "
                "intensity %u%s, %u warm-up + %u timed runs\n",
                C.Batches, C.BatchBytes / 1048576.0, C.Streams, C.Intensity,
                C.IntensityCalibrated ? " (calibrated: kernel time = H2D time)"
                                      : "",
                C.Warmup, C.Repeats);
  Out += format("bar: fixed variants reach %.0f%% overlap efficiency and "
                "run %.2fx faster than buggy ones\n",
                100 * R.Bar.MinEfficiency, R.Bar.MinSpeedup);
  for (const CheckResult &Check : R.Checks) {
    Out += "\n" + Check.CheckId;
    if (!Check.Scenario.empty())
      Out += " (" + Check.Scenario + ")";
    if (Check.Attempts > 1)
      Out += format(" [measured %u times: the first measurement could not "
                    "decide; the runs of all of them are shown]",
                    Check.Attempts);
    Out += "\n";
    if (Check.Kind == CheckKind::Overlap)
      renderOverlap(Check, Out);
    else
      renderCorrectness(Check, Out);
    Out +=
        format("  => %s: %s: %s\n",
               Check.Outcome.passed()         ? "PASS"
               : Check.Outcome.inconclusive() ? "INCONCLUSIVE"
                                              : "FAIL",
               verdictName(Check.Outcome.Kind), Check.Outcome.Reason.c_str());
  }
  for (const Reproduction &Rep : R.Reproductions) {
    Out += "\nseed " + Rep.Seed + ": " + Rep.Title + "\n";
    Out += format("  %-56s %14s %14s\n", "quantity", "predicted", "measured");
    for (const Quantity &Q : Rep.Quantities)
      Out += format("  %-56s %14s %14s\n", Q.Name.c_str(),
                    Q.Predicted ? value(*Q.Predicted, Q.Unit).c_str() : "-",
                    value(Q.Measured, Q.Unit).c_str());
    if (!Rep.Conclusion.empty())
      Out += "  => " + Rep.Conclusion + "\n";
  }
  Out += format("\n%u of %zu verdicts passed", R.count(&Verdict::passed),
                R.Checks.size());
  if (unsigned Unsure = R.count(&Verdict::inconclusive))
    Out += format(", %u inconclusive on this machine", Unsure);
  Out += "\n";
  return Out;
}

} // namespace cuda_async_verify
