//===- KernelArguments.h - The words a kernel launch is given ---*- C++ -*-===//
//
// A kernel's parameters reach the driver as an array of pointers to their
// values (cuLaunchKernel's kernelParams; the runtime's launches call it on
// the program's behalf). Their sizes come from the driver's description of
// the function (cuFuncGetParamInfo, cuKernelGetParamInfo for a CUkernel
// passed as a CUfunction), asked once per function. The 8-byte words of
// every parameter are what the recorder looks for device pointers in
// (recorder/DeviceBuffers.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_TRACE_INJECTION_KERNELARGUMENTS_H
#define CUDA_ASYNC_TRACE_INJECTION_KERNELARGUMENTS_H

#include "TracedApi.h"

#include <cupti.h>

namespace cuda_async_trace {

/// Whether \p Cbid in \p Domain is a driver-API kernel launch whose
/// parameters this reads.
bool launchesKernel(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid);

/// The words of the parameters of the launch \p Params (CUPTI's parameter
/// struct of \p Cbid); not Known where the launch passed them through
/// 'extra' or the driver did not describe the function. \p OwnCall is set
/// while the driver is asked, so that the tracer does not trace itself.
KernelWords readKernelWords(CUpti_CallbackId Cbid, const void *Params,
                            bool &OwnCall);

} // namespace cuda_async_trace

#endif // CUDA_ASYNC_TRACE_INJECTION_KERNELARGUMENTS_H
