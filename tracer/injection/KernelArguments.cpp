//===- KernelArguments.cpp - The words a kernel launch is given -----------===//

#include "KernelArguments.h"

#include <cuda.h>
#include <cupti.h> // The launches' parameter structs (generated_cuda_meta.h).

#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cuda_async_trace {

namespace {

/// Per function, its parameters' sizes; empty where the driver said none
/// or could not.
std::vector<std::size_t> parameterSizes(CUfunction F, bool &OwnCall) {
  static std::mutex Lock;
  static std::unordered_map<CUfunction, std::vector<std::size_t>> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Known.try_emplace(F);
  if (!New)
    return It->second;
  OwnCall = true;
  for (std::size_t I = 0; I < 256; ++I) {
    std::size_t Offset = 0, Size = 0;
    if (cuFuncGetParamInfo(F, I, &Offset, &Size) != CUDA_SUCCESS &&
        cuKernelGetParamInfo(reinterpret_cast<CUkernel>(F), I, &Offset,
                             &Size) != CUDA_SUCCESS)
      break;
    It->second.push_back(Size);
  }
  OwnCall = false;
  return It->second;
}

/// A launch's function and parameter array, from CUPTI's struct \p Struct
/// (none where they come through 'extra').
template <typename Struct>
std::pair<CUfunction, void **> launchIn(const void *Params) {
  const auto *P = static_cast<const Struct *>(Params);
  if constexpr (std::is_same_v<Struct, cuLaunchCooperativeKernel_params> ||
                std::is_same_v<Struct, cuLaunchCooperativeKernel_ptsz_params>)
    return {P->f, P->kernelParams};
  else
    return {P->f, P->extra ? nullptr : P->kernelParams};
}

/// The launch's function and parameter array, by callback id.
std::pair<CUfunction, void **> launchOf(CUpti_CallbackId Cbid,
                                        const void *Params) {
  switch (Cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    return launchIn<cuLaunchKernel_params>(Params);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    return launchIn<cuLaunchKernel_ptsz_params>(Params);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    return launchIn<cuLaunchKernelEx_params>(Params);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    return launchIn<cuLaunchKernelEx_ptsz_params>(Params);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    return launchIn<cuLaunchCooperativeKernel_params>(Params);
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    return launchIn<cuLaunchCooperativeKernel_ptsz_params>(Params);
  default:
    return {nullptr, nullptr};
  }
}

} // namespace

bool launchesKernel(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid) {
  return Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         (Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz);
}

KernelWords readKernelWords(CUpti_CallbackId Cbid, const void *Params,
                            bool &OwnCall) {
  KernelWords Out;
  auto [F, Values] = launchOf(Cbid, Params);
  if (!F || !Values)
    return Out;
  std::vector<std::size_t> Sizes = parameterSizes(F, OwnCall);
  if (Sizes.empty())
    return Out;
  for (std::size_t I = 0; I < Sizes.size(); ++I) {
    const char *Value = static_cast<const char *>(Values[I]);
    if (!Value)
      return Out;
    // Every aligned word of the parameter: a pointer, or a pointer inside
    // a struct passed by value.
    for (std::size_t At = 0; At + 8 <= Sizes[I]; At += 8) {
      if (Out.Count == KernelWords::Max)
        return Out; // Too many to tell: not known.
      std::uintptr_t Word;
      std::memcpy(&Word, Value + At, 8);
      Out.Words[Out.Count++] = Word;
    }
  }
  Out.Known = true;
  return Out;
}

} // namespace cuda_async_trace
