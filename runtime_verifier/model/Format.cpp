//===- Format.cpp - printf-style formatting into std::string --------------===//

#include "Format.h"

#include <cstdarg>
#include <cstdio>

namespace cuda_async_verify {

std::string format(const char *Fmt, ...) {
  va_list Args, Again;
  va_start(Args, Fmt);
  va_copy(Again, Args);
  int Length = std::vsnprintf(nullptr, 0, Fmt, Args);
  va_end(Args);
  std::string Text(Length > 0 ? static_cast<size_t>(Length) : 0, '\0');
  if (Length > 0)
    std::vsnprintf(Text.data(), Text.size() + 1, Fmt, Again);
  va_end(Again);
  return Text;
}

} // namespace cuda_async_verify
