//===- Fingerprints.cpp ---------------------------------------------------===//

#include "Fingerprints.h"
#include "support/PathComponents.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

namespace cuda_async_lint {

namespace {

std::string withoutSpaces(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

/// The code a finding points at, as its line writes it from the finding's
/// column: through the first balanced parenthesized group, or up to a ';'
/// or '{' outside parentheses, or a comment. What else the line holds (a
/// comment after it, a macro or a cast around it) is not the finding's.
std::string pointedCode(llvm::StringRef Line, unsigned Column) {
  if (Column == 0 || Column > Line.size())
    return withoutSpaces(Line);
  llvm::StringRef Rest = Line.drop_front(Column - 1);
  int Depth = 0;
  size_t End = 0;
  for (; End < Rest.size(); ++End) {
    char C = Rest[End];
    if (Rest.substr(End).starts_with("//") ||
        Rest.substr(End).starts_with("/*"))
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
  return withoutSpaces(Rest.take_front(End));
}

/// \p Message without the line numbers it names ("the read of 'h[0]' on
/// line 634"): they move when lines are added or removed above.
std::string withoutLineNumbers(llvm::StringRef Message) {
  std::string Out;
  for (size_t I = 0; I < Message.size();) {
    llvm::StringRef Rest = Message.substr(I);
    size_t Word = Rest.starts_with("line ")    ? 5
                  : Rest.starts_with("lines ") ? 6
                                               : 0;
    if (Word && Word < Rest.size() && llvm::isDigit(Rest[Word])) {
      Out += Rest.take_front(Word);
      I += Word;
      while (I < Message.size() &&
             (llvm::isDigit(Message[I]) || Message[I] == '-'))
        ++I;
      continue;
    }
    Out += Message[I++];
  }
  return Out;
}

std::string hashed(llvm::StringRef Key) {
  return llvm::formatv("{0:x-16}", llvm::xxh3_64bits(Key)).str();
}

} // namespace

void Fingerprinter::assign(ResolvedFinding &F) {
  std::string File = relativePath(F.Loc.File, SourceRoot);
  std::string Hex =
      hashed(F.CheckId + '\0' + File + '\0' +
             pointedCode(F.LineText, F.Loc.Column + 1 - F.LineTextColumn) +
             '\0' + withoutLineNumbers(F.Message));
  F.Fingerprint = Hex + ":" + std::to_string(++Occurrences[Hex]);
  // Version 1 hashed the whole line and the message as written.
  std::string V1 = hashed(F.CheckId + '\0' + File + '\0' +
                          withoutSpaces(F.LineText) + '\0' + F.Message);
  F.FingerprintV1 = V1 + ":" + std::to_string(++OccurrencesV1[V1]);
}

} // namespace cuda_async_lint
