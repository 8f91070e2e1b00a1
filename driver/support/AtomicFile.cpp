//===- AtomicFile.cpp -----------------------------------------------------===//

#include "AtomicFile.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cuda_async_lint {

namespace {

llvm::Error cannotWrite(llvm::StringRef Path, const llvm::Twine &Reason) {
  return llvm::createStringError("cannot write '%s': %s", Path.str().c_str(),
                                 Reason.str().c_str());
}

/// The model of a temporary file beside \p Path.
llvm::SmallString<256> temporaryModel(llvm::StringRef Path) {
  llvm::SmallString<256> Model(Path);
  Model += ".cuda-async-lint-%%%%%%%%.tmp";
  return Model;
}

} // namespace

/// True if \p Path exists and is no regular file (a device such as
/// /dev/stdout, a FIFO): it is written in place, never renamed over.
static bool isSpecialFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  return !llvm::sys::fs::status(Path, Status) &&
         llvm::sys::fs::exists(Status) &&
         !llvm::sys::fs::is_regular_file(Status);
}

llvm::Error checkWritable(llvm::StringRef Path) {
  if (llvm::sys::fs::is_directory(Path))
    return cannotWrite(Path, "it is a directory");
  if (llvm::sys::fs::exists(Path) &&
      llvm::sys::fs::access(Path, llvm::sys::fs::AccessMode::Write))
    return cannotWrite(Path, "permission denied");
  if (isSpecialFile(Path))
    return llvm::Error::success();
  llvm::Expected<llvm::sys::fs::TempFile> Temp =
      llvm::sys::fs::TempFile::create(temporaryModel(Path));
  if (!Temp)
    return cannotWrite(Path, llvm::toString(Temp.takeError()));
  if (llvm::Error E = Temp->discard())
    return cannotWrite(Path, llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content) {
  return writeFileAtomically(Path,
                             [&](llvm::raw_ostream &OS) { OS << Content; });
}

llvm::Error
writeFileAtomically(llvm::StringRef Path,
                    llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  return streamFileAtomically(Path, [&](llvm::raw_ostream &OS) {
    Write(OS);
    return llvm::Error::success();
  });
}

llvm::Error streamFileAtomically(
    llvm::StringRef Path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> Write) {
  if (isSpecialFile(Path)) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return cannotWrite(Path, EC.message());
    if (llvm::Error E = Write(OS))
      return E;
    OS.close();
    if (OS.has_error()) {
      std::string Reason = OS.error().message();
      OS.clear_error();
      return cannotWrite(Path, Reason);
    }
    return llvm::Error::success();
  }
  llvm::sys::fs::file_status Existing;
  bool Exists = !llvm::sys::fs::status(Path, Existing);
  llvm::Expected<llvm::sys::fs::TempFile> Temp =
      llvm::sys::fs::TempFile::create(temporaryModel(Path));
  if (!Temp)
    return cannotWrite(Path, llvm::toString(Temp.takeError()));
  {
    llvm::raw_fd_ostream OS(Temp->FD, /*shouldClose=*/false);
    if (llvm::Error E = Write(OS)) {
      OS.flush();
      OS.clear_error();
      llvm::consumeError(Temp->discard());
      return E;
    }
    OS.flush();
    if (OS.has_error()) {
      std::string Reason = OS.error().message();
      OS.clear_error();
      llvm::consumeError(Temp->discard());
      return cannotWrite(Path, Reason);
    }
  }
  if (Exists)
    if (std::error_code EC = llvm::sys::fs::setPermissions(
            Temp->TmpName, Existing.permissions())) {
      llvm::consumeError(Temp->discard());
      return cannotWrite(Path, EC.message());
    }
  if (llvm::Error E = Temp->keep(Path))
    return cannotWrite(Path, llvm::toString(std::move(E)));
  return llvm::Error::success();
}

} // namespace cuda_async_lint
