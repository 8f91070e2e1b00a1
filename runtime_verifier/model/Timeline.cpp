//===- Timeline.cpp - What the GPU's engines did during one run -----------===//

#include "Timeline.h"

#include <algorithm>

namespace cuda_async_verify {

const char *engineName(Engine E) {
  switch (E) {
  case Engine::HostToDevice:
    return "H2D";
  case Engine::Kernel:
    return "kernel";
  case Engine::DeviceToHost:
    return "D2H";
  }
  return "?";
}

const char *hostMemoryName(HostMemory M) {
  switch (M) {
  case HostMemory::None:
    return "none";
  case HostMemory::Pageable:
    return "pageable";
  case HostMemory::Pinned:
    return "pinned";
  case HostMemory::Managed:
    return "managed";
  case HostMemory::Unknown:
    return "unknown";
  }
  return "?";
}

double Timeline::spanMs() const {
  if (Activities.empty())
    return 0;
  double First = Activities.front().StartMs, Last = Activities.front().EndMs;
  for (const Activity &A : Activities) {
    First = std::min(First, A.StartMs);
    Last = std::max(Last, A.EndMs);
  }
  return Last - First;
}

unsigned Timeline::streamCount() const {
  unsigned Count = 0;
  for (const Activity &A : Activities)
    Count = std::max(Count, A.Stream + 1);
  return Count;
}

} // namespace cuda_async_verify
