//===- KernelArguments.cpp - The words a kernel launch is given -----------===//

#include "KernelArguments.h"

#include <cuda.h>
#include <cupti.h> // The launches' parameter structs (generated_cuda_meta.h).

#include <cstring>
#include <mutex>
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

/// The launch's function and parameter array, by callback id.
std::pair<CUfunction, void **> launchOf(CUpti_CallbackId Cbid,
                                        const void *Params) {
  switch (Cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: {
    const auto *P = static_cast<const cuLaunchKernel_params *>(Params);
    return {P->f, P->extra ? nullptr : P->kernelParams};
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    const auto *P = static_cast<const cuLaunchKernel_ptsz_params *>(Params);
    return {P->f, P->extra ? nullptr : P->kernelParams};
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
    const auto *P = static_cast<const cuLaunchKernelEx_params *>(Params);
    return {P->f, P->extra ? nullptr : P->kernelParams};
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    const auto *P = static_cast<const cuLaunchKernelEx_ptsz_params *>(Params);
    return {P->f, P->extra ? nullptr : P->kernelParams};
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel: {
    const auto *P =
        static_cast<const cuLaunchCooperativeKernel_params *>(Params);
    return {P->f, P->kernelParams};
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    const auto *P =
        static_cast<const cuLaunchCooperativeKernel_ptsz_params *>(Params);
    return {P->f, P->kernelParams};
  }
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
