//===- FileUri.cpp --------------------------------------------------------===//

#include "FileUri.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

std::string percentEncode(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

std::string fileUri(llvm::StringRef AbsolutePath) {
  std::string Path = llvm::sys::path::convert_to_slash(AbsolutePath);
  if (!llvm::StringRef(Path).starts_with("/"))
    Path = "/" + Path;
  return "file://" + percentEncode(Path);
}

} // namespace cuda_async_lint
