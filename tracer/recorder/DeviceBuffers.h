//===- DeviceBuffers.h - Which allocations a call's work touches -*- C++
//-*-===//
//
// cuda-async-default-stream's contract leaves out legacy-stream work whose
// result the created-stream work after it takes (the same buffer): that
// work must wait for it on any stream, so the legacy stream costs it no
// overlap. The tracer tells the two apart as the static check does, by
// buffer: the allocations (cudaMalloc and kin, whose base and size the
// calls return) that a copy's or memset's pointers and a kernel's
// parameter words fall in.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_DEVICEBUFFERS_H
#define CUDA_ASYNC_TRACE_RECORDER_DEVICEBUFFERS_H

#include "TracedApi.h"

#include <cstdint>
#include <map>
#include <set>

namespace cuda_async_trace {

/// The allocations some work touches; Unknown where it may touch others
/// (a kernel whose parameters the driver did not describe).
struct BufferSet {
  static constexpr std::size_t Max = 32;
  std::set<std::uintptr_t> Bases;
  bool Unknown = false;
  void add(const BufferSet &Other);
  /// Both known, and an allocation in common.
  bool shares(const BufferSet &Other) const;
};

/// The live allocations of a process, by base.
class DeviceBuffers {
public:
  void allocated(std::uintptr_t Base, std::uint64_t Size);
  void released(std::uintptr_t Base);
  /// The base of the allocation \p Ptr lies in; 0 if none known.
  std::uintptr_t allocationOf(std::uintptr_t Ptr) const;
  /// What the work of a call of \p Kind with \p Args touches.
  BufferSet touchedBy(CallKind Kind, const CallArgs &Args) const;

private:
  std::map<std::uintptr_t, std::uint64_t> Live;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_DEVICEBUFFERS_H
