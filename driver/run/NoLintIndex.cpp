//===- NoLintIndex.cpp ----------------------------------------------------===//

#include "NoLintIndex.h"

using namespace clang;

namespace cuda_async_lint {

const NoLintIndex::FileComments &
NoLintIndex::commentsOf(const SourceManager &SM, FileID FID) {
  std::optional<llvm::StringRef> Buffer = SM.getBufferDataOrNone(FID);
  llvm::StringRef Text = Buffer.value_or("");
  std::string Name;
  if (OptionalFileEntryRef File = SM.getFileEntryRefForID(FID))
    Name = File->getName().str();
  auto [It, New] =
      Files.try_emplace({Text.data(), Text.size(), std::move(Name)});
  if (!New)
    return It->second;
  for (size_t At = Text.find("NOLINT"); At != llvm::StringRef::npos;
       At = Text.find("NOLINT", At + 1)) {
    It->second.Offsets.push_back(At);
    llvm::StringRef Rest = Text.substr(At + 6);
    It->second.HasBlocks |=
        Rest.starts_with("BEGIN") || Rest.starts_with("END");
  }
  return It->second;
}

bool NoLintIndex::mayCover(const SourceManager &SM, SourceLocation Loc) {
  for (;;) {
    auto [FID, Pos] = SM.getDecomposedSpellingLoc(Loc);
    if (FID.isValid()) {
      const FileComments &Comments = commentsOf(SM, FID);
      if (Comments.HasBlocks)
        return true;
      if (!Comments.Offsets.empty()) {
        // From the start of the line before to the start of the next.
        unsigned Line = SM.getLineNumber(FID, Pos);
        unsigned From = SM.getFileOffset(
            SM.translateLineCol(FID, Line > 1 ? Line - 1 : 1, 1));
        SourceLocation Next = SM.translateLineCol(FID, Line + 1, 1);
        unsigned To = Next.isValid() ? SM.getFileOffset(Next) : ~0u;
        auto It = llvm::lower_bound(Comments.Offsets, From);
        // (A next line at or before the diagnostic is not expected: the
        // handler decides then.)
        if (It != Comments.Offsets.end() && (*It < To || To <= Pos))
          return true;
      }
    }
    if (!Loc.isMacroID())
      return false;
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  }
}

} // namespace cuda_async_lint
