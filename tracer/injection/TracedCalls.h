//===- TracedCalls.h - CUPTI callback ids bound to catalog rows -*- C++ -*-===//
//
// For every CUPTI callback id whose function the catalog knows: the row, and
// where each parameter sits in CUPTI's parameter struct (generated from the
// CUDA headers by cupti_params.py), so that an argument is read by the
// catalog's role for it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_INJECTION_TRACEDCALLS_H
#define CUDA_ASYNC_TRACE_INJECTION_TRACEDCALLS_H

#include "CopyDescriptors.h"
#include "TracedApi.h"

#include <cupti.h>

#include <cstddef>

namespace cuda_async_trace {

struct ParamMember {
  std::size_t Offset;
  std::size_t Size;
};

struct TracedCall {
  CUpti_CallbackDomain Domain;
  CUpti_CallbackId Cbid;
  const char *Name;
  /// A _ptsz/_ptds variant: a null stream is the per-thread default stream.
  bool PerThread;
  const CatalogRow *Row = nullptr;
  ParamMember Members[MaxRoles];
  unsigned MemberCount = 0;
  /// The struct its 'desc' argument points to, if it is a copy's.
  CopyDescriptor Descriptor = CopyDescriptor::None;
};

/// The traced call of callback \p Cbid in \p Domain, or null.
const TracedCall *tracedCall(CUpti_CallbackDomain Domain,
                             CUpti_CallbackId Cbid);

/// The arguments of a call, read by role from CUPTI's parameter struct.
/// \p AfterReturn: the call has returned, so 'out' parameters hold results.
CallArgs readArguments(const TracedCall &Call, const void *Params,
                       bool AfterReturn);

/// Every traced call, for enabling their callbacks.
const TracedCall *tracedCallsBegin();
const TracedCall *tracedCallsEnd();

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_INJECTION_TRACEDCALLS_H
