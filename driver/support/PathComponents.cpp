//===- PathComponents.cpp -------------------------------------------------===//

#include "PathComponents.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

bool isPathUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty() || !Path.consume_front(Dir))
    return false;
  return Path.empty() || llvm::sys::path::is_separator(Path.front()) ||
         llvm::sys::path::is_separator(Dir.back());
}

bool pathEndsWith(llvm::StringRef Path, llvm::StringRef Suffix) {
  if (Suffix.empty() || !Path.consume_back(Suffix))
    return false;
  return Path.empty() || llvm::sys::path::is_separator(Path.back()) ||
         llvm::sys::path::is_separator(Suffix.front());
}

std::string relativePath(llvm::StringRef Path, llvm::StringRef Root) {
  if (!isPathUnder(Path, Root))
    return Path.str();
  return Path.drop_front(Root.size()).ltrim("/\\").str();
}

} // namespace cuda_async_lint
