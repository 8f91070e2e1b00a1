//===- Positions.h - LSP positions and byte offsets -------------*- C++ -*-===//
//
// The protocol counts a position's character in UTF-16 code units unless
// client and server agree on UTF-8 (LSP 3.17 positionEncoding); the
// analysis counts bytes. Conversions are over the text the analysis read,
// so a diagnostic lands where the finding is in the buffer it came from.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LSP_POSITIONS_H
#define CUDA_ASYNC_LINT_DRIVER_LSP_POSITIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>

namespace cuda_async_lint::lsp {

enum class PositionEncoding { UTF16, UTF8 };

struct Position {
  unsigned Line = 0, Character = 0;
};

/// The position of byte \p Offset of \p Text (past the end: the end).
Position positionOf(llvm::StringRef Text, size_t Offset, PositionEncoding E);
/// The byte offset of \p P in \p Text; none if its line is past the last
/// line. A character past the end of its line is the line's end, as the
/// protocol says.
std::optional<size_t> offsetOf(llvm::StringRef Text, Position P,
                               PositionEncoding E);

llvm::json::Value toJSON(const Position &P);
/// A position from the protocol's {"line", "character"}; none if malformed.
std::optional<Position> positionFromJSON(const llvm::json::Value *V);

} // namespace cuda_async_lint::lsp

#endif // CUDA_ASYNC_LINT_DRIVER_LSP_POSITIONS_H
