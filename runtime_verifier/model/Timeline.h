//===- Timeline.h - What the GPU's engines did during one run ---*- C++ -*-===//
//
// One traced run of a pipeline variant, as intervals per engine. CUPTI's
// activity records fill it on the GPU; the unit tests fill it by hand.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_TIMELINE_H
#define CUDA_ASYNC_VERIFY_MODEL_TIMELINE_H

#include <cstdint>
#include <string>
#include <vector>

namespace cuda_async_verify {

/// The three hardware queues the reference pipeline keeps busy: Hopper has
/// separate copy engines for each direction, and the kernels (each one fills
/// the GPU) run one after another on the compute engine.
enum class Engine { HostToDevice, Kernel, DeviceToHost };
/// The engines in the order a batch passes through them.
inline constexpr Engine PipelineEngines[] = {
    Engine::HostToDevice, Engine::Kernel, Engine::DeviceToHost};

/// The host memory kind CUPTI reports for a copy's host side.
enum class HostMemory { None, Pageable, Pinned, Managed, Unknown };

const char *engineName(Engine E);
const char *hostMemoryName(HostMemory M);

/// One copy or kernel, in milliseconds from the start of its run.
struct Activity {
  Engine Where = Engine::Kernel;
  /// The stream it ran on, numbered 0, 1, ... in order of first appearance.
  unsigned Stream = 0;
  double StartMs = 0;
  double EndMs = 0;
  /// Copies only.
  std::uint64_t Bytes = 0;
  HostMemory Memory = HostMemory::None;

  double durationMs() const { return EndMs - StartMs; }
};

struct Timeline {
  std::vector<Activity> Activities;

  bool empty() const { return Activities.empty(); }
  /// Last end minus first start; 0 when empty.
  double spanMs() const;
  unsigned streamCount() const;
};

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_TIMELINE_H
