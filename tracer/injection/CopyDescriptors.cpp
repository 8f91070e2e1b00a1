//===- CopyDescriptors.cpp - The sides of a 2D or 3D copy -----------------===//

#include "CopyDescriptors.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstring>

namespace cuda_async_trace {

namespace {

/// cudaMemcpyKind's numbers, as the race detector reads them.
constexpr std::uint64_t HostToDevice = 1, DeviceToHost = 2, Default = 4;

/// One side of a driver descriptor: its first byte, or 0 for an array.
std::uintptr_t driverSide(CUmemorytype Type, const void *Host,
                          CUdeviceptr Device, std::uint64_t Offset) {
  switch (Type) {
  case CU_MEMORYTYPE_HOST:
    return reinterpret_cast<std::uintptr_t>(Host) + Offset;
  case CU_MEMORYTYPE_DEVICE:
  case CU_MEMORYTYPE_UNIFIED:
    return static_cast<std::uintptr_t>(Device) + Offset;
  default:
    return 0;
  }
}

/// The direction the driver's memory types give: a host side against a
/// device side or an array; unified memory is told apart by the pointers.
std::uint64_t driverKind(CUmemorytype Src, CUmemorytype Dst) {
  if (Src == CU_MEMORYTYPE_UNIFIED || Dst == CU_MEMORYTYPE_UNIFIED)
    return Default;
  bool SrcHost = Src == CU_MEMORYTYPE_HOST, DstHost = Dst == CU_MEMORYTYPE_HOST;
  if (SrcHost && !DstHost)
    return HostToDevice;
  if (DstHost && !SrcHost)
    return DeviceToHost;
  return 0;
}

/// The rows copied (readArguments derives the size from them).
void setShape(CallArgs &Args, std::uint64_t Width, std::uint64_t Height,
              std::uint64_t Depth) {
  Args.HasShape = true;
  Args.Shape.Width = Width;
  Args.Shape.Height = Height;
  Args.Shape.Depth = Depth;
}

} // namespace

CopyDescriptor copyDescriptorOf(const char *Name) {
  static const struct {
    const char *Name;
    CopyDescriptor Layout;
  } Known[] = {{"cudaMemcpy3D", CopyDescriptor::Runtime3D},
               {"cudaMemcpy3DAsync", CopyDescriptor::Runtime3D},
               {"cuMemcpy2D", CopyDescriptor::Driver2D},
               {"cuMemcpy2DUnaligned", CopyDescriptor::Driver2D},
               {"cuMemcpy2DAsync", CopyDescriptor::Driver2D},
               {"cuMemcpy3D", CopyDescriptor::Driver3D},
               {"cuMemcpy3DAsync", CopyDescriptor::Driver3D}};
  for (const auto &K : Known)
    if (std::strcmp(K.Name, Name) == 0)
      return K.Layout;
  return CopyDescriptor::None;
}

bool readCopyDescriptor(CopyDescriptor Layout, const void *Desc,
                        CallArgs &Args) {
  if (!Desc)
    return false;
  switch (Layout) {
  case CopyDescriptor::None:
    return false;
  case CopyDescriptor::Runtime3D: {
    const auto &P = *static_cast<const cudaMemcpy3DParms *>(Desc);
    // With an array on either side the extent counts its elements.
    if (P.srcArray || P.dstArray)
      return false;
    auto First = [](const cudaPitchedPtr &Ptr, const cudaPos &Pos) {
      return reinterpret_cast<std::uintptr_t>(Ptr.ptr) +
             Pos.z * Ptr.pitch * Ptr.ysize + Pos.y * Ptr.pitch + Pos.x;
    };
    Args.Src = First(P.srcPtr, P.srcPos);
    Args.Dst = First(P.dstPtr, P.dstPos);
    setShape(Args, P.extent.width, P.extent.height, P.extent.depth);
    Args.Shape.SrcPitch = P.srcPtr.pitch;
    Args.Shape.DstPitch = P.dstPtr.pitch;
    Args.Shape.SrcSlicePitch = P.srcPtr.pitch * P.srcPtr.ysize;
    Args.Shape.DstSlicePitch = P.dstPtr.pitch * P.dstPtr.ysize;
    Args.HasCopyKind = true;
    Args.CopyKind = static_cast<std::uint64_t>(P.kind);
    return true;
  }
  case CopyDescriptor::Driver2D: {
    const auto &P = *static_cast<const CUDA_MEMCPY2D *>(Desc);
    Args.Src = driverSide(P.srcMemoryType, P.srcHost, P.srcDevice,
                          P.srcY * P.srcPitch + P.srcXInBytes);
    Args.Dst = driverSide(P.dstMemoryType, P.dstHost, P.dstDevice,
                          P.dstY * P.dstPitch + P.dstXInBytes);
    setShape(Args, P.WidthInBytes, P.Height, 1);
    Args.Shape.SrcPitch = P.srcPitch;
    Args.Shape.DstPitch = P.dstPitch;
    Args.HasCopyKind = true;
    Args.CopyKind = driverKind(P.srcMemoryType, P.dstMemoryType);
    return true;
  }
  case CopyDescriptor::Driver3D: {
    const auto &P = *static_cast<const CUDA_MEMCPY3D *>(Desc);
    Args.Src = driverSide(P.srcMemoryType, P.srcHost, P.srcDevice,
                          P.srcZ * P.srcPitch * P.srcHeight +
                              P.srcY * P.srcPitch + P.srcXInBytes);
    Args.Dst = driverSide(P.dstMemoryType, P.dstHost, P.dstDevice,
                          P.dstZ * P.dstPitch * P.dstHeight +
                              P.dstY * P.dstPitch + P.dstXInBytes);
    setShape(Args, P.WidthInBytes, P.Height, P.Depth);
    Args.Shape.SrcPitch = P.srcPitch;
    Args.Shape.DstPitch = P.dstPitch;
    Args.Shape.SrcSlicePitch = P.srcPitch * P.srcHeight;
    Args.Shape.DstSlicePitch = P.dstPitch * P.dstHeight;
    Args.HasCopyKind = true;
    Args.CopyKind = driverKind(P.srcMemoryType, P.dstMemoryType);
    return true;
  }
  }
  return false;
}

} // namespace cuda_async_trace
