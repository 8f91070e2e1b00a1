//===- SyntheticReport.h - Reports built from made-up numbers ---*- C++ -*-===//

#ifndef CUDA_ASYNC_VERIFY_TEST_SYNTHETICREPORT_H
#define CUDA_ASYNC_VERIFY_TEST_SYNTHETICREPORT_H

#include "Results.h"
#include "Verdict.h"

namespace cuda_async_verify::synthetic {

inline Activity activity(Engine Where, unsigned Stream, double Start,
                         double End, HostMemory Memory = HostMemory::Pinned) {
  Activity A;
  A.Where = Where;
  A.Stream = Stream;
  A.StartMs = Start;
  A.EndMs = End;
  if (Where != Engine::Kernel) {
    A.Bytes = 1 << 20;
    A.Memory = Memory;
  } else {
    A.Memory = HostMemory::None;
  }
  return A;
}

/// A timed variant of 4 batches over 4 streams with unit stages whose runs
/// took Samples milliseconds.
inline VariantResult timedVariant(std::string Name, Role Kind,
                                  std::vector<double> Samples) {
  VariantResult V;
  V.Name = std::move(Name);
  V.Kind = Kind;
  V.Timed = true;
  V.TimeMs = summarize(Samples);
  for (double &S : Samples)
    S += 0.05; // the host's wake-up after the final synchronization
  V.WallMs = summarize(std::move(Samples));
  V.Stages = {1.0, 1.0, 1.0};
  V.deriveOverlap(4, 4);
  return V;
}

/// The pageable-copy check as a GPU run might fill it: serial 12, ideal 6.
inline CheckResult pageableCheck(std::vector<double> Buggy,
                                 std::vector<double> Fixed) {
  CheckResult C;
  C.CheckId = "cuda-async-pageable-copy";
  C.Kind = CheckKind::Overlap;
  C.Variants.push_back(timedVariant("malloc", Role::Buggy, std::move(Buggy)));
  C.Variants.push_back(
      timedVariant("cudaMallocHost", Role::Fixed, std::move(Fixed)));
  return C;
}

inline Report sampleReport() {
  Report R;
  R.Env.Gpu = "Test GPU <1>";
  R.Env.ComputeCapability = "9.0";
  R.Env.DriverVersion = "580.1";
  R.Env.CudaRuntime = "13.0";
  R.Env.Cupti = "API 130001";
  R.Env.DateUtc = "2026-11-22T00:00:00Z";
  R.Config = {16u << 20, 4, 4, 1800, true, 2, 3};
  CheckResult C = pageableCheck({12.1, 12.0, 11.9}, {6.1, 6.2, 6.3});
  Timeline Buggy, Fixed;
  Buggy.Activities = {
      activity(Engine::HostToDevice, 0, 0, 1, HostMemory::Pageable),
      activity(Engine::Kernel, 0, 1, 2),
      activity(Engine::DeviceToHost, 0, 2, 3, HostMemory::Pageable)};
  Fixed.Activities = {activity(Engine::HostToDevice, 0, 0, 1),
                      activity(Engine::HostToDevice, 1, 1, 2),
                      activity(Engine::Kernel, 0, 1, 2),
                      activity(Engine::DeviceToHost, 0, 2, 3)};
  C.Variants[0].setTrace(Buggy);
  C.Variants[1].setTrace(Fixed);
  C.Outcome = judge(C, R.Bar);
  R.Checks.push_back(C);

  CheckResult Race;
  Race.CheckId = "cuda-async-unsynchronized-access";
  Race.Scenario = "host reads D2H results before synchronizing";
  Race.Kind = CheckKind::Correctness;
  VariantResult Early, Late;
  Early.Name = "read before sync";
  Early.Output = Correctness{false, 100, 40, "40 of 100 values stale"};
  Late.Name = "read after sync";
  Late.Kind = Role::Fixed;
  Late.Output = Correctness{true, 100, 0, "all 100 values right"};
  Race.Variants = {Early, Late};
  Race.Outcome = judge(Race, R.Bar);
  R.Checks.push_back(Race);

  Reproduction Seed;
  Seed.Seed = "002";
  Seed.Title = "4 batches x 3 stages";
  Seed.Quantities = {{"sequential total", "units", 12.0, 12.03},
                     {"speedup", "x", 2.0, 1.94},
                     {"time unit", "ms", std::nullopt, 0.315}};
  Seed.Conclusion = "predicted 12 -> 6 units";
  Seed.Timelines.emplace_back("pipelined (ideal schedule)",
                              idealSchedule(StageTimes{1, 1, 1}, 4, 4));
  R.Reproductions.push_back(Seed);
  return R;
}

} // namespace cuda_async_verify::synthetic

#endif // CUDA_ASYNC_VERIFY_TEST_SYNTHETICREPORT_H
