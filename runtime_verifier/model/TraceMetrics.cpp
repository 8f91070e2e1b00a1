//===- TraceMetrics.cpp - Concurrency measured from a traced run ----------===//

#include "TraceMetrics.h"

#include <algorithm>

namespace cuda_async_verify {

namespace {
struct Edge {
  double AtMs;
  int Engine;
  int Delta;
};
} // namespace

TraceMetrics measureTrace(const Timeline &Trace) {
  TraceMetrics M;
  M.SpanMs = Trace.spanMs();
  std::vector<Edge> Edges;
  for (const Activity &A : Trace.Activities) {
    if (A.Where == Engine::Kernel)
      ++M.Kernels;
    else
      ++M.CopiesByMemory[A.Memory];
    if (A.EndMs <= A.StartMs)
      continue;
    Edges.push_back({A.StartMs, static_cast<int>(A.Where), +1});
    Edges.push_back({A.EndMs, static_cast<int>(A.Where), -1});
  }
  // Ends sort before starts at the same instant: touching is not overlap.
  std::sort(Edges.begin(), Edges.end(), [](const Edge &L, const Edge &R) {
    return L.AtMs != R.AtMs ? L.AtMs < R.AtMs : L.Delta < R.Delta;
  });
  int Active[3] = {0, 0, 0};
  double *Busy[3] = {&M.HostToDeviceBusyMs, &M.KernelBusyMs,
                     &M.DeviceToHostBusyMs};
  const int H2D = static_cast<int>(Engine::HostToDevice);
  const int Kernel = static_cast<int>(Engine::Kernel);
  const int D2H = static_cast<int>(Engine::DeviceToHost);
  for (size_t I = 0; I < Edges.size(); ++I) {
    Active[Edges[I].Engine] += Edges[I].Delta;
    if (I + 1 == Edges.size())
      break;
    double Width = Edges[I + 1].AtMs - Edges[I].AtMs;
    if (Width <= 0)
      continue;
    int BusyEngines = 0;
    for (int E = 0; E < 3; ++E)
      if (Active[E] > 0) {
        *Busy[E] += Width;
        ++BusyEngines;
      }
    if (Active[Kernel] > 0 && (Active[H2D] > 0 || Active[D2H] > 0))
      M.CopyKernelOverlapMs += Width;
    if (BusyEngines >= 2)
      M.TwoEnginesMs += Width;
    if (BusyEngines == 3)
      M.ThreeEnginesMs += Width;
  }
  return M;
}

} // namespace cuda_async_verify
