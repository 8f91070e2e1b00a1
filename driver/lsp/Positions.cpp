//===- Positions.cpp ------------------------------------------------------===//

#include "Positions.h"

namespace cuda_async_lint::lsp {

namespace {

/// The UTF-16 code units of the UTF-8 sequence starting with \p Lead: two
/// for a four-byte sequence (a surrogate pair), else one; a continuation
/// byte counts none.
unsigned utf16Units(unsigned char Lead) {
  if ((Lead & 0xC0) == 0x80)
    return 0;
  return Lead >= 0xF0 ? 2 : 1;
}

} // namespace

Position positionOf(llvm::StringRef Text, size_t Offset, PositionEncoding E) {
  Offset = std::min(Offset, Text.size());
  Position P;
  size_t LineStart = 0;
  for (size_t I = 0; I < Offset; ++I)
    if (Text[I] == '\n') {
      ++P.Line;
      LineStart = I + 1;
    }
  llvm::StringRef Prefix = Text.slice(LineStart, Offset);
  if (E == PositionEncoding::UTF8) {
    P.Character = Prefix.size();
  } else {
    for (char C : Prefix)
      P.Character += utf16Units(static_cast<unsigned char>(C));
  }
  return P;
}

std::optional<size_t> offsetOf(llvm::StringRef Text, Position P,
                               PositionEncoding E) {
  size_t Start = 0;
  for (unsigned L = 0; L < P.Line; ++L) {
    size_t NL = Text.find('\n', Start);
    if (NL == llvm::StringRef::npos)
      return std::nullopt;
    Start = NL + 1;
  }
  size_t End = Text.find('\n', Start);
  if (End == llvm::StringRef::npos)
    End = Text.size();
  if (E == PositionEncoding::UTF8)
    return std::min(Start + P.Character, End);
  unsigned Units = 0;
  size_t I = Start;
  while (I < End && Units < P.Character) {
    Units += utf16Units(static_cast<unsigned char>(Text[I]));
    ++I;
    // The rest of a multi-byte sequence belongs to the same character.
    while (I < End && (static_cast<unsigned char>(Text[I]) & 0xC0) == 0x80)
      ++I;
  }
  return I;
}

llvm::json::Value toJSON(const Position &P) {
  return llvm::json::Object{{"line", P.Line}, {"character", P.Character}};
}

std::optional<Position> positionFromJSON(const llvm::json::Value *V) {
  const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
  std::optional<int64_t> Line = O ? O->getInteger("line") : std::nullopt;
  std::optional<int64_t> Character =
      O ? O->getInteger("character") : std::nullopt;
  if (!Line || !Character || *Line < 0 || *Character < 0)
    return std::nullopt;
  return Position{unsigned(*Line), unsigned(*Character)};
}

} // namespace cuda_async_lint::lsp
