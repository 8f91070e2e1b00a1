//===- ApiKind.cpp - The catalog's words for argument roles ---------------===//

#include "ApiKind.h"

#include <cstring>

namespace cuda_async_lint {

std::optional<ArgRole> argRoleNamed(const char *Word, std::size_t Length) {
  static const struct {
    const char *Word;
    ArgRole Role;
  } Words[] = {{"dst", ArgRole::Dst},         {"src", ArgRole::Src},
               {"size", ArgRole::Size},       {"kind", ArgRole::Kind},
               {"stream", ArgRole::Stream},   {"event", ArgRole::Event},
               {"ptr", ArgRole::Ptr},         {"out", ArgRole::Out},
               {"flags", ArgRole::Flags},     {"desc", ArgRole::Desc},
               {"config", ArgRole::Config},   {"value", ArgRole::Value},
               {"dpitch", ArgRole::DstPitch}, {"spitch", ArgRole::SrcPitch},
               {"width", ArgRole::Width},     {"height", ArgRole::Height},
               {"graph", ArgRole::Graph},     {"req", ArgRole::Request}};
  for (const auto &W : Words)
    if (std::strlen(W.Word) == Length &&
        std::strncmp(W.Word, Word, Length) == 0)
      return W.Role;
  return std::nullopt;
}

} // namespace cuda_async_lint
