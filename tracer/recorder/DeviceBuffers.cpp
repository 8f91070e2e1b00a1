//===- DeviceBuffers.cpp - Which allocations a call's work touches --------===//

#include "DeviceBuffers.h"

namespace cuda_async_trace {

void BufferSet::add(const BufferSet &Other) {
  Unknown |= Other.Unknown;
  for (std::uintptr_t Base : Other.Bases) {
    if (Bases.size() == Max) {
      Unknown = true;
      return;
    }
    Bases.insert(Base);
  }
}

bool BufferSet::shares(const BufferSet &Other) const {
  if (Unknown || Other.Unknown)
    return false;
  for (std::uintptr_t Base : Bases)
    if (Other.Bases.count(Base))
      return true;
  return false;
}

void DeviceBuffers::allocated(std::uintptr_t Base, std::uint64_t Size) {
  if (Base && Size)
    Live[Base] = Size;
}

void DeviceBuffers::released(std::uintptr_t Base) { Live.erase(Base); }

std::uintptr_t DeviceBuffers::allocationOf(std::uintptr_t Ptr) const {
  auto It = Live.upper_bound(Ptr);
  if (It == Live.begin())
    return 0;
  --It;
  return Ptr - It->first < It->second ? It->first : 0;
}

BufferSet DeviceBuffers::touchedBy(CallKind Kind, const CallArgs &Args) const {
  BufferSet Out;
  auto Add = [&](std::uintptr_t Ptr) {
    if (std::uintptr_t Base = Ptr ? allocationOf(Ptr) : 0)
      Out.Bases.insert(Base);
  };
  switch (Kind) {
  case CallKind::Copy:
  case CallKind::Memset:
    Add(Args.Dst);
    Add(Args.Src);
    Add(Args.Ptr);
    break;
  case CallKind::KernelLaunch:
    if (!Args.Kernel.Known) {
      Out.Unknown = true;
      break;
    }
    for (unsigned I = 0;
         I < Args.Kernel.Count && Out.Bases.size() < BufferSet::Max; ++I)
      Add(Args.Kernel.Words[I]);
    break;
  default:
    // Library and graph work: what it touches is not seen.
    Out.Unknown = true;
    break;
  }
  return Out;
}

} // namespace cuda_async_trace
