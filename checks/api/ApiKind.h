//===- ApiKind.h - What kind of thing a CUDA call does ----------*- C++ -*-===//
//
// The catalog's kinds of call and roles of arguments, on their own: no LLVM,
// so that the tracer's recorder, which runs inside the traced program,
// shares them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_API_APIKIND_H
#define CUDA_ASYNC_LINT_API_APIKIND_H

#include <cstddef>
#include <optional>

namespace cuda_async_lint {

enum class ApiKind {
  Copy,
  Memset,
  Allocate,
  Release,
  Register,
  Unregister,
  StreamCreate,
  StreamDestroy,
  StreamSync,
  DeviceSync,
  StreamQuery,
  EventSync,
  EventQuery,
  /// The time between two events' records (cudaEventElapsedTime): read
  /// once both are done, it measures the work between them.
  EventElapsedTime,
  EventCreate,
  EventRecord,
  StreamWaitEvent,
  KernelLaunch,
  /// A host function enqueued on a stream (cudaLaunchHostFunc,
  /// cudaStreamAddCallback): it runs once the work before it is done.
  HostFunc,
  /// Stream capture begins or ends: work issued on a capturing stream is
  /// recorded into a graph, not run.
  CaptureBegin,
  CaptureEnd,
  /// A graph made executable (cudaGraphInstantiate), and an executable
  /// graph launched on a stream: its nodes run as the stream's work.
  GraphInstantiate,
  GraphLaunch,
  /// The device address of mapped page-locked host memory
  /// (cudaHostGetDevicePointer): 'out' receives an alias of 'ptr'.
  DevicePointer,
};

/// The direction of a copy, as cudaMemcpyKind spells it.
enum class CopyDirection {
  HostToHost,
  HostToDevice,
  DeviceToHost,
  DeviceToDevice,
  /// cudaMemcpyDefault: unified virtual addressing tells the sides apart.
  Default,
  /// Read from the call's 'kind' argument.
  KindArg,
  /// The sides are described in a struct or in arrays.
  Descriptor,
};

/// Parameter roles, as CudaApis.def spells them.
enum class ArgRole {
  Dst,
  Src,
  Size,
  Kind,
  Stream,
  Event,
  Ptr,
  Out,
  Flags,
  Desc,
  Config,
  Value,
  /// A 2D copy's destination and source pitch, row width and row count.
  DstPitch,
  SrcPitch,
  Width,
  Height,
  /// The graph (or executable graph) instantiated or launched.
  Graph,
  /// An MPI request (HostCommunicationApis.def): what a nonblocking call
  /// returns, and what completes it.
  Request,
};

/// The role CudaApis.def's word \p Word (\p Length bytes) names; std::nullopt
/// for '-' or a word it does not know.
std::optional<ArgRole> argRoleNamed(const char *Word, std::size_t Length);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_API_APIKIND_H
