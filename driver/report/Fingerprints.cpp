//===- Fingerprints.cpp ---------------------------------------------------===//

#include "Fingerprints.h"
#include "support/PathComponents.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

namespace cuda_async_lint {

static std::string normalizedLine(llvm::StringRef Line) {
  std::string Out;
  for (char C : Line)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

void Fingerprinter::assign(ResolvedFinding &F) {
  std::string Key = F.CheckId + '\0' + relativePath(F.Loc.File, SourceRoot) +
                    '\0' + normalizedLine(F.LineText) + '\0' + F.Message;
  uint64_t Hash = llvm::xxh3_64bits(llvm::StringRef(Key));
  std::string Hex = llvm::formatv("{0:x-16}", Hash).str();
  F.Fingerprint = Hex + ":" + std::to_string(++Occurrences[Hex]);
}

} // namespace cuda_async_lint
