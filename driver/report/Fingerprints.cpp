//===- Fingerprints.cpp ---------------------------------------------------===//

#include "Fingerprints.h"
#include "LineText.h"
#include "support/PathComponents.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

namespace cuda_async_lint {

namespace {

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
  std::string Hex = hashed(F.CheckId + '\0' + File + '\0' + F.PointedCode +
                           '\0' + withoutLineNumbers(F.Message));
  F.Fingerprint = Hex + ":" + std::to_string(++Occurrences[Hex]);
  // Version 1 hashed the whole line and the message as written; only a
  // baseline reads it.
  if (!WithVersion1 || F.LineText.empty())
    return;
  std::string V1 = hashed(F.CheckId + '\0' + File + '\0' +
                          withoutSpaces(F.LineText) + '\0' + F.Message);
  F.FingerprintV1 = V1 + ":" + std::to_string(++OccurrencesV1[V1]);
}

} // namespace cuda_async_lint
