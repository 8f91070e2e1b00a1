//===- LineText.cpp -------------------------------------------------------===//

#include "LineText.h"
#include "Report.h"
#include "llvm/ADT/StringExtras.h"

namespace cuda_async_lint {

llvm::StringRef lineFromColumn(llvm::StringRef Line, unsigned Column,
                               size_t Width, unsigned &From) {
  From = Column > 1 && Column <= Line.size() ? Column : 1;
  return Line.drop_front(From - 1).take_front(Width);
}

std::string withoutSpaces(llvm::StringRef Text) {
  std::string Out(Text.size(), '\0');
  size_t N = 0;
  for (char C : Text)
    if (!llvm::isSpace(C))
      Out[N++] = C;
  Out.resize(N);
  return Out;
}

namespace {

/// The code a finding points at, as \p Line writes it from \p Column:
/// through the first balanced parenthesized group, or up to a ';' or '{'
/// outside parentheses, or a comment. What else the line holds (a comment
/// after it, a macro or a cast around it) is not the finding's.
llvm::StringRef pointedCode(llvm::StringRef Line, unsigned Column) {
  if (Column == 0 || Column > Line.size())
    return Line;
  llvm::StringRef Rest = Line.drop_front(Column - 1);
  int Depth = 0;
  size_t End = 0;
  for (; End < Rest.size(); ++End) {
    char C = Rest[End];
    if (C == '/' && End + 1 < Rest.size() &&
        (Rest[End + 1] == '/' || Rest[End + 1] == '*'))
      break;
    if (C == '(' || C == '[') {
      ++Depth;
    } else if (C == ')' || C == ']') {
      if (Depth == 0)
        break; // It closes a group around the finding: a macro's, a cast's.
      if (--Depth == 0) {
        ++End;
        break;
      }
    } else if (Depth == 0 && (C == ';' || C == '{' || C == ',')) {
      break;
    }
  }
  return Rest.take_front(End);
}

} // namespace

void keepLineText(llvm::StringRef Line, ResolvedFinding &F) {
  // The code is read from what a report would show of the line: on a long
  // line, MaxLineText characters from the column.
  unsigned From = 1;
  llvm::StringRef Shown =
      Line.size() <= MaxLineText
          ? Line
          : lineFromColumn(Line, F.Loc.Column, MaxLineText, From);
  F.PointedCode = withoutSpaces(pointedCode(Shown, F.Loc.Column + 1 - From));
  // Version 1 hashed the whole line, as the baselines written then quote
  // it. A line longer than MaxLineText has been hashed as a window since
  // (5d074b4), which matches none of them: it is not kept.
  F.LineText = Line.size() <= MaxLineText ? Line.str() : std::string();
}

} // namespace cuda_async_lint
