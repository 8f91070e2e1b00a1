//===- TimelineSvg.h - Buggy vs fixed timelines (--timeline) ----*- C++ -*-===//
//
// One section per check (and per reproduced background document): each
// traced variant gets a lane per engine (H2D, kernel, D2H) with its
// operations drawn as bars coloured by stream, on a time axis shared within
// the section, so the fixed variant's bars visibly stack up in time.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_TIMELINESVG_H
#define CUDA_ASYNC_VERIFY_MODEL_TIMELINESVG_H

#include "Results.h"

#include <string>

namespace cuda_async_verify {

std::string renderTimelineSvg(const Report &R);

/// Escapes text for XML character data and attribute values.
std::string escapeXml(const std::string &Text);

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_TIMELINESVG_H
