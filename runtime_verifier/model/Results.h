//===- Results.h - What one verification run measured -----------*- C++ -*-===//
//
// The report model shared by the GPU side (which fills it), the verdicts and
// the renderers (text, JSON, SVG). Plain data: the unit tests build it from
// synthetic numbers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_RESULTS_H
#define CUDA_ASYNC_VERIFY_MODEL_RESULTS_H

#include "PipelineModel.h"
#include "Statistics.h"
#include "Timeline.h"
#include "TraceMetrics.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_verify {

/// Whether a variant shows the pattern a check reports or the fix it
/// suggests.
enum class Role { Buggy, Fixed };
const char *roleName(Role R);

/// Whether the data a variant produced is right.
struct Correctness {
  bool Correct = true;
  std::uint64_t Checked = 0;
  std::uint64_t Wrong = 0;
  std::string Detail;
};

/// How a variant run in a child process ended (release mismatches can abort
/// the process, so they never run in the verifier itself).
struct ProcessOutcome {
  /// -1 when a signal ended the process.
  int ExitCode = 0;
  int Signal = 0;
  std::string SignalName;
  /// The child's own account (the CUDA error it got, say) or the last line
  /// the C library printed before aborting.
  std::string Message;
};

struct VariantResult {
  std::string Name;
  Role Kind = Role::Buggy;
  std::string Description;

  /// Timed variants: the GPU span of the whole pipeline (from the start of
  /// issuing to the end of its last operation, host stalls included), the
  /// host's wall time to the return of the final synchronization, each stage
  /// alone, and the overlap numbers derived from the span.
  bool Timed = false;
  Summary TimeMs;
  Summary WallMs;
  /// The stage times of each run (alone, and together where measured), in
  /// the order of TimeMs's samples; empty when every run had Stages.
  std::vector<StageProfile> StageRuns;
  /// Their medians.
  StageTimes Stages;
  StageProfile Profile;
  double SerialMs = 0;
  /// The ideal schedule of the stages as this machine runs them together,
  /// and (for comparison) of the stages timed alone.
  double IdealMs = 0;
  double IdealAloneMs = 0;
  /// The median of the runs' efficiencies (each run against the stages
  /// measured in its own repeat; NaN when none is defined) and the interval
  /// that holds it.
  double Efficiency = 0;
  Interval EfficiencyInterval;

  /// Traced variants: one extra run under CUPTI activity tracing.
  bool Traced = false;
  Timeline Trace;
  TraceMetrics Concurrency;

  std::optional<Correctness> Output;
  std::optional<ProcessOutcome> Process;

  /// Fills Stages, Profile, SerialMs, IdealMs and the efficiency from
  /// StageRuns (or Stages, when there are none) and TimeMs.
  void deriveOverlap(unsigned Batches, unsigned Streams);
  /// Adds the runs of another measurement of the same variant (measured
  /// again because the first could not decide), then derives again.
  void append(const VariantResult &Again, unsigned Batches, unsigned Streams);
  /// Fills Concurrency from Trace.
  void setTrace(Timeline T);
};

/// What a check's verdict is about: restoring copy/compute overlap, or
/// restoring correct results.
enum class CheckKind { Overlap, Correctness };

enum class VerdictKind {
  FixRestoresOverlap,
  FixRestoresCorrectness,
  /// The fixed variant overlaps, but below the efficiency target.
  FixBelowTarget,
  /// The fixed variant is not faster than the buggy one by the margin.
  NoClearGain,
  /// The fixed variant produced wrong data or failed.
  FixIncorrect,
  /// The buggy variant happened to run correctly this time.
  BugNotObserved,
  /// The runs spread too widely around the bar to say pass or fail, or this
  /// machine cannot show overlap at all.
  Inconclusive,
  /// Nothing was measured (no variants).
  NotMeasured,
};
const char *verdictName(VerdictKind K);

struct Verdict {
  VerdictKind Kind = VerdictKind::NotMeasured;
  std::string Reason;
  bool passed() const {
    return Kind == VerdictKind::FixRestoresOverlap ||
           Kind == VerdictKind::FixRestoresCorrectness;
  }
  /// Neither passed nor failed: the measurement could not tell on this
  /// machine (a race that did not happen is not a fix that failed).
  bool inconclusive() const {
    return Kind == VerdictKind::Inconclusive ||
           Kind == VerdictKind::BugNotObserved;
  }
  bool failed() const { return !passed() && !inconclusive(); }
};

struct CheckResult {
  /// The cuda-async-lint check whose finding the buggy variant reproduces.
  std::string CheckId;
  /// Which pattern of that check, when it has several.
  std::string Scenario;
  CheckKind Kind = CheckKind::Overlap;
  std::vector<VariantResult> Variants;
  Verdict Outcome;
  /// How many times the variants were measured: a measurement that cannot
  /// decide is taken again and its runs are added to the first.
  unsigned Attempts = 1;
};

/// One number of a background document, predicted there and measured here.
struct Quantity {
  std::string Name;
  std::string Unit;
  std::optional<double> Predicted;
  double Measured = 0;
};

/// A background document's example, rerun on real hardware.
struct Reproduction {
  std::string Seed;
  std::string Title;
  std::vector<Quantity> Quantities;
  /// Named timelines (measured runs, the predicted schedule) to draw.
  std::vector<std::pair<std::string, Timeline>> Timelines;
  std::string Conclusion;

  void add(std::string Name, std::string Unit, std::optional<double> Predicted,
           double Measured);
};

struct Environment {
  std::string Gpu;
  std::string ComputeCapability;
  std::string DriverVersion;
  std::string CudaDriverApi;
  std::string CudaRuntime;
  std::string Cupti;
  int CopyEngines = 0;
  std::string Host;
  std::string DateUtc;
};

struct Configuration {
  std::uint64_t BatchBytes = 0;
  unsigned Batches = 0;
  unsigned Streams = 0;
  unsigned Intensity = 0;
  bool IntensityCalibrated = false;
  unsigned Warmup = 0;
  unsigned Repeats = 0;
};

/// The stated bar a fix must clear.
struct Criteria {
  /// Overlap efficiency the fixed variant must reach.
  double MinEfficiency = 0.90;
  /// Buggy median over fixed median the fix must reach; the two variants'
  /// min..max ranges must also not overlap.
  double MinSpeedup = 1.10;
};

struct Report {
  Environment Env;
  Configuration Config;
  Criteria Bar;
  std::vector<CheckResult> Checks;
  std::vector<Reproduction> Reproductions;

  /// True when every check's verdict passed.
  bool allPassed() const;
  unsigned count(bool (Verdict::*Is)() const) const;
};

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_RESULTS_H
