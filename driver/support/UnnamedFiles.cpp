//===- UnnamedFiles.cpp ---------------------------------------------------===//

#include "UnnamedFiles.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>

namespace cuda_async_lint {

llvm::Expected<int> createUnnamedFile(llvm::StringRef Prefix,
                                      llvm::StringRef Suffix) {
  int FD = -1;
  llvm::SmallString<128> Path;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile(Prefix, Suffix, FD, Path))
    return llvm::errorCodeToError(EC);
  llvm::sys::fs::remove(Path);
  return FD;
}

llvm::Error readFileSlices(int FD, uint64_t From, uint64_t Size,
                           llvm::function_ref<void(llvm::StringRef)> Each) {
  char Buf[65536];
  for (uint64_t Read = 0; Read < Size;) {
    size_t Want = size_t(std::min<uint64_t>(sizeof(Buf), Size - Read));
    llvm::Expected<size_t> N = llvm::sys::fs::readNativeFileSlice(
        llvm::sys::fs::convertFDToNativeFile(FD),
        llvm::MutableArrayRef<char>(Buf, Want), From + Read);
    if (!N)
      return N.takeError();
    if (*N == 0)
      break;
    Each(llvm::StringRef(Buf, *N));
    Read += *N;
  }
  return llvm::Error::success();
}

} // namespace cuda_async_lint
