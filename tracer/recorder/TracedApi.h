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
};

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_RECORDER_TRACEDAPI_H
