//===- DeviceEnvironment.h - What the results were measured on --*- C++ -*-===//

#ifndef CUDA_ASYNC_VERIFY_GPU_DEVICEENVIRONMENT_H
#define CUDA_ASYNC_VERIFY_GPU_DEVICEENVIRONMENT_H

#include "Results.h"

namespace cuda_async_verify {

/// GPU model, driver, CUDA versions, host and date, for the recorded
/// results.
Environment describeEnvironment(int DeviceOrdinal,
                                const std::string &CuptiStatus);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_GPU_DEVICEENVIRONMENT_H
