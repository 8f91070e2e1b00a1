//===- Format.h - printf-style formatting into std::string ------*- C++ -*-===//

#ifndef CUDA_ASYNC_VERIFY_MODEL_FORMAT_H
#define CUDA_ASYNC_VERIFY_MODEL_FORMAT_H

#include <string>

namespace cuda_async_verify {

/// Like snprintf, into a string of any length.
std::string format(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace cuda_async_verify

#endif // CUDA_ASYNC_VERIFY_MODEL_FORMAT_H
