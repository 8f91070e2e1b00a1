//===- TracedCalls.cpp - CUPTI callback ids bound to catalog rows ---------===//

#include "TracedCalls.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

namespace cuda_async_trace {

namespace {

#define CUPTI_MEMBER(Struct, Member)                                           \
  ParamMember { offsetof(Struct, Member), sizeof(((Struct *)nullptr)->Member) }

std::vector<TracedCall> buildTable() {
  std::vector<TracedCall> Table;
  auto Add = [&Table](CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                      const char *Name, bool PerThread,
                      std::initializer_list<ParamMember> Members) {
    const CatalogRow *Row = catalogRow(Name);
    if (!Row)
      return;
    TracedCall Call{Domain, Cbid, Name, PerThread,
                    Row,    {},   0,    copyDescriptorOf(Name)};
    for (const ParamMember &M : Members)
      if (Call.MemberCount < MaxRoles)
        Call.Members[Call.MemberCount++] = M;
    Table.push_back(Call);
  };
  // CUPTI_PARAMS(Domain, Cbid, Name, PerThread, CUPTI_MEMBER(...)...)
#define CUPTI_PARAMS(Domain, Cbid, Name, PerThread, ...)                       \
  Add(Domain, Cbid, Name, PerThread, {__VA_ARGS__});
#include "CuptiParams.inc"
#undef CUPTI_PARAMS
  return Table;
}

const std::vector<TracedCall> &table() {
  static const std::vector<TracedCall> Table = buildTable();
  return Table;
}

std::uint64_t readInteger(const void *Params, ParamMember M) {
  const char *P = static_cast<const char *>(Params) + M.Offset;
  switch (M.Size) {
  case 1:
    return *reinterpret_cast<const std::uint8_t *>(P);
  case 2: {
    std::uint16_t V;
    std::memcpy(&V, P, 2);
    return V;
  }
  case 4: {
    std::uint32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case 8: {
    std::uint64_t V;
    std::memcpy(&V, P, 8);
    return V;
  }
  default:
    return 0;
  }
}

} // namespace

const TracedCall *tracedCall(CUpti_CallbackDomain Domain,
                             CUpti_CallbackId Cbid) {
  // A direct index per domain: the callback is on every traced call's path.
  static const auto Index = [] {
    std::vector<const TracedCall *> Runtime(CUPTI_RUNTIME_TRACE_CBID_SIZE),
        Driver(CUPTI_DRIVER_TRACE_CBID_SIZE);
    for (const TracedCall &C : table()) {
      auto &Slots = C.Domain == CUPTI_CB_DOMAIN_RUNTIME_API ? Runtime : Driver;
      if (C.Cbid < Slots.size())
        Slots[C.Cbid] = &C;
    }
    return std::make_pair(Runtime, Driver);
  }();
  if (Domain != CUPTI_CB_DOMAIN_RUNTIME_API &&
      Domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return nullptr;
  const auto &Slots =
      Domain == CUPTI_CB_DOMAIN_RUNTIME_API ? Index.first : Index.second;
  return Cbid < Slots.size() ? Slots[Cbid] : nullptr;
}

const TracedCall *tracedCallsBegin() { return table().data(); }
const TracedCall *tracedCallsEnd() { return table().data() + table().size(); }

CallArgs readArguments(const TracedCall &Call, const void *Params,
                       bool AfterReturn) {
  CallArgs Args;
  const CatalogRow &Row = *Call.Row;
  unsigned N =
      Row.RoleCount < Call.MemberCount ? Row.RoleCount : Call.MemberCount;
  for (unsigned I = 0; I < N; ++I) {
    ParamMember M = Call.Members[I];
    if (!Row.Roles[I])
      continue;
    switch (*Row.Roles[I]) {
    case ArgRole::Stream:
      Args.HasStream = true;
      Args.Stream = readInteger(Params, M);
      break;
    case ArgRole::Event:
      Args.Event = readInteger(Params, M);
      break;
    case ArgRole::Ptr:
      Args.Ptr = readInteger(Params, M);
      break;
    case ArgRole::Dst:
      Args.Dst = readInteger(Params, M);
      break;
    case ArgRole::Src:
      Args.Src = readInteger(Params, M);
      break;
    case ArgRole::Kind:
      Args.HasCopyKind = true;
      Args.CopyKind = readInteger(Params, M);
      break;
    case ArgRole::Flags:
      Args.Flags = readInteger(Params, M);
      break;
    case ArgRole::Size:
      Args.HasSize = true;
      Args.Size = readInteger(Params, M);
      break;
    case ArgRole::DstPitch:
      Args.HasShape = true;
      Args.Shape.DstPitch = readInteger(Params, M);
      break;
    case ArgRole::SrcPitch:
      Args.HasShape = true;
      Args.Shape.SrcPitch = readInteger(Params, M);
      break;
    case ArgRole::Width:
      Args.HasShape = true;
      Args.Shape.Width = readInteger(Params, M);
      break;
    case ArgRole::Height:
      Args.HasShape = true;
      Args.Shape.Height = readInteger(Params, M);
      break;
    case ArgRole::Graph:
      Args.Graph = readInteger(Params, M);
      break;
    case ArgRole::Desc:
      readCopyDescriptor(Call.Descriptor,
                         reinterpret_cast<const void *>(readInteger(Params, M)),
                         Args);
      break;
    case ArgRole::Out:
      if (AfterReturn) {
        auto *Out = reinterpret_cast<void **>(readInteger(Params, M));
        if (Out)
          Args.Allocated = reinterpret_cast<std::uintptr_t>(*Out);
      }
      break;
    case ArgRole::Config:
      // A launch configuration struct carries the stream.
      if (Row.Kind == CallKind::KernelLaunch) {
        auto Config = readInteger(Params, M);
        if (!Config)
          break;
        Args.HasStream = true;
        if (Call.Domain == CUPTI_CB_DOMAIN_RUNTIME_API)
          Args.Stream = reinterpret_cast<std::uintptr_t>(
              reinterpret_cast<const cudaLaunchConfig_t *>(Config)->stream);
        else
          Args.Stream = reinterpret_cast<std::uintptr_t>(
              reinterpret_cast<const CUlaunchConfig *>(Config)->hStream);
      }
      break;
    default:
      break;
    }
  }
  // A 2D or 3D copy's size is its rows' (arguments or descriptor).
  if (Args.HasShape && !Args.HasSize) {
    Args.HasSize = true;
    Args.Size = Args.Shape.Width * Args.Shape.Height * Args.Shape.Depth;
  }
  return Args;
}

} // namespace cuda_async_trace
