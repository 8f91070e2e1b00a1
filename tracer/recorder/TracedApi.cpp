//===- TracedApi.cpp - The catalog's rows, for the tracer -----------------===//

#include "TracedApi.h"

#include <cstring>

namespace cuda_async_trace {

namespace {

/// The parameter roles of a CudaApis.def role string, word by word.
void parseRoles(const char *Text, CatalogRow &Row) {
  Row.RoleCount = 0;
  const char *P = Text;
  while (*P && Row.RoleCount < MaxRoles) {
    while (*P == ' ')
      ++P;
    if (!*P)
      break;
    const char *End = P;
    while (*End && *End != ' ')
      ++End;
    Row.Roles[Row.RoleCount++] =
        cuda_async_lint::argRoleNamed(P, static_cast<std::size_t>(End - P));
    P = End;
  }
}

struct Rows {
  CatalogRow Table[256];
  unsigned Count = 0;

  void add(const char *Name, CallKind Kind, bool Async, ApiMemory Memory,
           const char *RoleText,
           CopyDirection Direction = CopyDirection::Descriptor) {
    CatalogRow &Row = Table[Count++];
    Row.Name = Name;
    Row.Kind = Kind;
    Row.Async = Async;
    Row.Memory = Memory;
    Row.Direction = Direction;
    parseRoles(RoleText, Row);
  }

  Rows() {
    // The C library's rows (malloc, free) are not CUDA calls: CUPTI never
    // reports them, so they are left out.
#define Runtime true
#define Driver true
#define Libc false
#define Async true
#define Blocking false
#define CUDA_COPY(Name, Family, Mode, Direction, Roles)                        \
  if (Family)                                                                  \
    add(#Name, CallKind::Copy, Mode, ApiMemory::None, Roles,                   \
        CopyDirection::Direction);
#define CUDA_MEMSET(Name, Family, Mode, Roles)                                 \
  if (Family)                                                                  \
    add(#Name, CallKind::Memset, Mode, ApiMemory::None, Roles);
#define CUDA_ALLOC(Name, Family, Memory, ReleasedBy, Roles)                    \
  if (Family)                                                                  \
    add(#Name, CallKind::Allocate, false, ApiMemory::Memory, Roles);
#define CUDA_RELEASE(Name, Family, Memory, Mode, Roles)                        \
  if (Family)                                                                  \
    add(#Name, CallKind::Release, Mode, ApiMemory::Memory, Roles);
#define CUDA_REGISTER(Name, Family, UnregisteredBy, Roles)                     \
  if (Family)                                                                  \
    add(#Name, CallKind::Register, false, ApiMemory::Pinned, Roles);
#define CUDA_UNREGISTER(Name, Family, Roles)                                   \
  if (Family)                                                                  \
    add(#Name, CallKind::Unregister, false, ApiMemory::None, Roles);
#define CUDA_CALL(Name, Family, Kind, Roles)                                   \
  if (Family)                                                                  \
    add(#Name, CallKind::Kind, CallKind::Kind == CallKind::KernelLaunch,       \
        ApiMemory::None, Roles);
#define CUDA_LAUNCH_CONFIGURATION(Name, Family, Roles)                         \
  CUDA_CALL(Name, Family, KernelLaunch, Roles)
#include "api/CudaApis.def"
#undef Runtime
#undef Driver
#undef Libc
#undef Async
#undef Blocking
  }
};

} // namespace

const CatalogRow *catalogRow(const char *Name) {
  static const Rows All;
  for (unsigned I = 0; I < All.Count; ++I)
    if (std::strcmp(All.Table[I].Name, Name) == 0)
      return &All.Table[I];
  return nullptr;
}

const char *callKindName(CallKind K) {
  switch (K) {
  case CallKind::Copy:
    return "copy";
  case CallKind::Memset:
    return "memset";
  case CallKind::Allocate:
    return "allocate";
  case CallKind::Release:
    return "release";
  case CallKind::Register:
    return "register";
  case CallKind::Unregister:
    return "unregister";
  case CallKind::StreamCreate:
    return "stream-create";
  case CallKind::StreamDestroy:
    return "stream-destroy";
  case CallKind::StreamSync:
    return "stream-sync";
  case CallKind::DeviceSync:
    return "device-sync";
  case CallKind::StreamQuery:
    return "stream-query";
  case CallKind::EventSync:
    return "event-sync";
  case CallKind::EventQuery:
    return "event-query";
  case CallKind::EventElapsedTime:
    return "event-elapsed-time";
  case CallKind::EventCreate:
    return "event-create";
  case CallKind::EventRecord:
    return "event-record";
  case CallKind::StreamWaitEvent:
    return "stream-wait-event";
  case CallKind::KernelLaunch:
    return "kernel-launch";
  case CallKind::HostFunc:
    return "host-func";
  case CallKind::CaptureBegin:
    return "capture-begin";
  case CallKind::CaptureEnd:
    return "capture-end";
  case CallKind::GraphInstantiate:
    return "graph-instantiate";
  case CallKind::GraphLaunch:
    return "graph-launch";
  case CallKind::DevicePointer:
    return "device-pointer";
  }
  return "unknown";
}

} // namespace cuda_async_trace
