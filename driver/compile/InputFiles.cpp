//===- InputFiles.cpp -----------------------------------------------------===//

#include "InputFiles.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

namespace cuda_async_lint {

/// \p Path's status, or why it cannot be had.
static std::string statusOf(llvm::StringRef Path,
                            llvm::sys::fs::file_status &Status) {
  std::error_code EC = llvm::sys::fs::status(Path, Status);
  if (!EC)
    return "";
  std::string Quoted = "'" + Path.str() + "'";
  if (EC == llvm::errc::no_such_file_or_directory)
    return Quoted + ": no such file";
  if (EC == std::errc::too_many_symbolic_link_levels)
    return Quoted + ": a loop of symbolic links (too many levels of symbolic "
                    "links)";
  if (EC == llvm::errc::permission_denied)
    return Quoted + ": permission denied: a directory on its path cannot be "
                    "searched";
  if (EC == llvm::errc::not_a_directory)
    return Quoted + ": a part of the path that should be a directory is a "
                    "file";
  return Quoted + ": " + EC.message();
}

std::string whyInaccessible(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  return statusOf(Path, Status);
}

std::string whyNotReadableFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (std::string Problem = statusOf(Path, Status); !Problem.empty())
    return Problem;
  std::string Quoted = "'" + Path.str() + "'";
  if (llvm::sys::fs::is_directory(Status))
    return Quoted + " is a directory, not a source file";
  if (!llvm::sys::fs::is_regular_file(Status))
    return Quoted + " is not a regular file (a FIFO, device or socket cannot "
                    "be analysed)";
  int FD;
  if (std::error_code EC = llvm::sys::fs::openFileForRead(Path, FD))
    return "cannot read " + Quoted + ": " + EC.message();
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return "";
}

std::string whyUnsupportedEncoding(llvm::StringRef Path,
                                   llvm::StringRef Start) {
  if (const char *BOM = clang::SrcMgr::ContentCache::getInvalidBOM(Start))
    return (llvm::Twine(BOM) + " byte order mark detected in '" + Path +
            "', but encoding is not supported: clang reads UTF-8 source; "
            "save the file as UTF-8")
        .str();
  return "";
}

std::string whyUnsupportedEncoding(llvm::StringRef Path) {
  char Start[8] = {};
  int FD;
  if (llvm::sys::fs::openFileForRead(Path, FD))
    return "";
  llvm::Expected<size_t> Read = llvm::sys::fs::readNativeFile(
      llvm::sys::fs::convertFDToNativeFile(FD),
      llvm::MutableArrayRef<char>(Start, sizeof(Start)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  if (!Read) {
    llvm::consumeError(Read.takeError());
    return "";
  }
  return whyUnsupportedEncoding(Path, llvm::StringRef(Start, *Read));
}

} // namespace cuda_async_lint
