//===- TextReport.h - The human table printed on stdout ---------*- C++ -*-===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_TEXTREPORT_H
#define CUDA_ASYNC_VERIFY_MODEL_TEXTREPORT_H

#include "Results.h"

#include <string>

namespace cuda_async_verify {

/// The environment and configuration header, then one table per check with
/// its verdict, then the reproduced background-document numbers.
std::string renderText(const Report &R);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_TEXTREPORT_H
