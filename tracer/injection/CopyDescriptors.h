//===- CopyDescriptors.h - The sides of a 2D or 3D copy ---------*- C++ -*-===//
//
// cudaMemcpy3DAsync, cuMemcpy2DAsync and cuMemcpy3DAsync describe their
// sides in a struct: where each side's first byte is, its pitch, and the
// rows copied. Read here into CallArgs (Dst, Src, the shape, and a
// cudaMemcpyKind the race detector picks the host side by), so that the
// recorder needs no CUDA headers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_INJECTION_COPYDESCRIPTORS_H
#define CUDA_ASYNC_TRACE_INJECTION_COPYDESCRIPTORS_H

#include "TracedApi.h"

namespace cuda_async_trace {

/// Which struct a catalogued copy's 'desc' argument points to.
enum class CopyDescriptor {
  None,
  /// cudaMemcpy3DParms (cudaMemcpy3D, cudaMemcpy3DAsync).
  Runtime3D,
  /// CUDA_MEMCPY2D (cuMemcpy2D, cuMemcpy2DAsync).
  Driver2D,
  /// CUDA_MEMCPY3D (cuMemcpy3D, cuMemcpy3DAsync).
  Driver3D,
};

/// The descriptor the catalogued copy \p Name takes (its suffixes
/// stripped); None for any other call and for peer copies (no host side).
CopyDescriptor copyDescriptorOf(const char *Name);

/// Reads the struct at \p Desc into \p Args; false (Args untouched) where
/// it names no host side the detector can watch: a CUDA array's extent is
/// in elements of unknown size.
bool readCopyDescriptor(CopyDescriptor Layout, const void *Desc,
                        CallArgs &Args);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_INJECTION_COPYDESCRIPTORS_H
