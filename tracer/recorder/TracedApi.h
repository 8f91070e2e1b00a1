//===- TracedApi.h - What the tracer knows of one CUDA call -----*- C++ -*-===//
//
// The catalog's rows (checks/api/CudaApis.def) as the tracer needs them, with
// no LLVM: what kind of call it is, whether it returns before the work is
// done, and which parameter plays which role. The injection library binds
// each row to CUPTI's callback ids; the recorder's rules read only this.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_RECORDER_TRACEDAPI_H
#define CUDA_ASYNC_TRACE_RECORDER_TRACEDAPI_H

#include "api/ApiKind.h"

#include <cstdint>
#include <optional>

namespace cuda_async_trace {

/// The catalog's kinds of call (checks/api/ApiKind.h).
using CallKind = cuda_async_lint::ApiKind;

/// The memory an allocation returns or a release must be given.
enum class ApiMemory : std::uint8_t { None, Pageable, Pinned, Managed, Device };

/// The catalog's roles of arguments (checks/api/ApiKind.h).
using cuda_async_lint::ArgRole;

/// The catalog's directions of a copy (checks/api/ApiKind.h).
using cuda_async_lint::CopyDirection;

constexpr unsigned MaxRoles = 12;

struct CatalogRow {
  const char *Name;
  CallKind Kind;
  /// Returns before the work is done (cudaMemcpyAsync), or not.
  bool Async;
  ApiMemory Memory;
  /// A copy's direction; Descriptor for every other call.
  CopyDirection Direction;
  /// The role of each parameter; none for '-'.
  std::optional<ArgRole> Roles[MaxRoles];
  unsigned RoleCount;
};

/// The catalog row of the runtime or driver API \p Name (suffixes such as
/// _v2 or _ptsz already stripped), or null.
const CatalogRow *catalogRow(const char *Name);

/// "copy", "release", ... as the trace spells a kind.
const char *callKindName(CallKind K);

/// The rows a 2D or 3D copy touches on each side: Depth slices of Height
/// rows of Width bytes, a row Pitch bytes after the one before it and a
/// slice SlicePitch bytes after the one before it.
struct CopyShape {
  std::uint64_t Width = 0, Height = 1, Depth = 1;
  std::uint64_t DstPitch = 0, SrcPitch = 0;
  std::uint64_t DstSlicePitch = 0, SrcSlicePitch = 0;
  /// The bytes from a side's first byte to one past its last.
  std::uint64_t extent(std::uint64_t Pitch, std::uint64_t SlicePitch) const {
    if (!Width || !Height || !Depth)
      return 0;
    return (Depth - 1) * SlicePitch + (Height - 1) * Pitch + Width;
  }
};

/// The 8-byte words of a kernel launch's parameters, where the driver
/// described them (cuFuncGetParamInfo): the device pointers it was given
/// are among them, pointers inside struct parameters included.
struct KernelWords {
  static constexpr unsigned Max = 32;
  bool Known = false;
  std::uint8_t Count = 0;
  std::uintptr_t Words[Max] = {};
};

/// What the recorder is told of one call, read from its arguments by role.
struct CallArgs {
  bool HasStream = false;
  std::uintptr_t Stream = 0;
  std::uintptr_t Event = 0;
  /// The pointer a release, registration or unregistration is given.
  std::uintptr_t Ptr = 0;
  /// A copy's destination and source, and its cudaMemcpyKind argument.
  std::uintptr_t Dst = 0;
  std::uintptr_t Src = 0;
  bool HasCopyKind = false;
  std::uint64_t CopyKind = 0;
  /// What an allocation wrote to its 'out' parameter (after the call).
  std::uintptr_t Allocated = 0;
  bool HasSize = false;
  std::uint64_t Size = 0;
  /// Creation flags (cudaStreamNonBlocking, ...).
  std::uint64_t Flags = 0;
  /// A 2D or 3D copy's rows (Dst and Src are their first bytes; Size the
  /// bytes copied).
  bool HasShape = false;
  CopyShape Shape;
  /// The graph a capture ended with, an instantiation made executable, or a
  /// launch ran.
  std::uintptr_t Graph = 0;
  /// The context (device) the call was made in: CUPTI's context id, 0 where
  /// unknown. It tells the default streams of two devices apart.
  std::uint32_t Context = 0;
  /// A kernel launch's parameters.
  KernelWords Kernel;
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_TRACEDAPI_H
