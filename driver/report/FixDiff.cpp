//===- FixDiff.cpp --------------------------------------------------------===//

#include "FixDiff.h"
#include "Fixes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cuda_async_lint {

std::optional<std::string> fixAsUnifiedDiff(const ResolvedFinding &F,
                                            llvm::StringRef DisplayPath,
                                            llvm::vfs::FileSystem &Sources) {
  if (F.Fixes.empty())
    return std::nullopt;
  auto Buffer = Sources.getBufferForFile(F.Fixes.front().Begin.File);
  if (!Buffer)
    return std::nullopt;
  return fixAsUnifiedDiff(F, DisplayPath, (*Buffer)->getBuffer());
}

std::optional<std::string> fixAsUnifiedDiff(const ResolvedFinding &F,
                                            llvm::StringRef DisplayPath,
                                            llvm::StringRef Content) {
  if (F.Fixes.empty())
    return std::nullopt;
  const std::string &File = F.Fixes.front().Begin.File;
  // One file, as every check's fix-its are (SARIF's artifactChanges and
  // this diff say so).
  if (llvm::any_of(F.Fixes, [&](const ResolvedFix &X) {
        return X.Begin.File != File || X.End.File != File;
      }))
    return std::nullopt;
  if (contentHash(Content) != F.Fixes.front().ParsedContentHash)
    return std::nullopt;

  std::vector<ResolvedFix> Fixes = F.Fixes;
  llvm::sort(Fixes, [](const ResolvedFix &A, const ResolvedFix &B) {
    return A.Begin.Offset < B.Begin.Offset;
  });
  unsigned First = Fixes.front().Begin.Offset, Last = 0;
  for (const ResolvedFix &X : Fixes) {
    if (X.End.Offset < X.Begin.Offset || X.End.Offset > Content.size() ||
        X.Begin.Offset < Last)
      return std::nullopt; // Overlapping or out of the file.
    Last = X.End.Offset;
  }
  // The whole lines the fixes touch, before and after.
  size_t LineBegin = Content.rfind('\n', First == 0 ? 0 : First - 1);
  LineBegin =
      (First == 0 || LineBegin == llvm::StringRef::npos) ? 0 : LineBegin + 1;
  size_t LineEnd = Content.find('\n', Last);
  if (LineEnd == llvm::StringRef::npos)
    LineEnd = Content.size();
  std::string Before = Content.slice(LineBegin, LineEnd).str();
  std::string After;
  size_t At = LineBegin;
  for (const ResolvedFix &X : Fixes) {
    After += Content.slice(At, X.Begin.Offset).str() + X.Replacement;
    At = X.End.Offset;
  }
  After += Content.slice(At, LineEnd).str();

  auto Lines = [](llvm::StringRef Text) {
    llvm::SmallVector<llvm::StringRef> Out;
    Text.split(Out, '\n');
    return Out;
  };
  auto Old = Lines(Before), New = Lines(After);
  unsigned Start = Fixes.front().Begin.Line;
  std::string Diff =
      "--- a/" + DisplayPath.str() + "\n+++ b/" + DisplayPath.str() + "\n@@ -" +
      std::to_string(Start) + "," + std::to_string(Old.size()) + " +" +
      std::to_string(Start) + "," + std::to_string(New.size()) + " @@\n";
  for (llvm::StringRef L : Old)
    Diff += "-" + L.str() + "\n";
  for (llvm::StringRef L : New)
    Diff += "+" + L.str() + "\n";
  return Diff;
}

} // namespace cuda_async_lint
