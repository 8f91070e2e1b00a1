//===- GitDiff.cpp --------------------------------------------------------===//

#include "GitDiff.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace cuda_async_lint {

namespace {

/// Runs git with \p Args in \p Directory; its stdout, or its stderr as the
/// error.
llvm::Expected<std::string> runGit(llvm::ArrayRef<llvm::StringRef> Args,
                                   llvm::StringRef Directory) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError("--diff needs git, which is not on PATH");
  llvm::SmallString<128> Out, Err;
  if (llvm::sys::fs::createTemporaryFile("cuda-async-lint-git", "out", Out) ||
      llvm::sys::fs::createTemporaryFile("cuda-async-lint-git", "err", Err))
    return llvm::createStringError("--diff: cannot create a temporary file");
  llvm::FileRemover RemoveOut(Out), RemoveErr(Err);
  std::vector<llvm::StringRef> Argv = {"git", "-C", Directory};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), Out.str(),
                                                Err.str()};
  std::string ExecError;
  int Status = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &ExecError);
  auto Read = [](llvm::StringRef Path) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    return Buffer ? (*Buffer)->getBuffer().str() : std::string();
  };
  if (Status != 0)
    return llvm::createStringError(
        "--diff: git %s failed: %s", Args.front().str().c_str(),
        (ExecError.empty() ? llvm::StringRef(Read(Err)).trim().str()
                           : ExecError)
            .c_str());
  return Read(Out);
}

} // namespace

llvm::Expected<LineFilter> changedLinesSince(llvm::StringRef Ref,
                                             llvm::StringRef Directory) {
  llvm::Expected<std::string> Top =
      runGit({"rev-parse", "--show-toplevel"}, Directory);
  if (!Top)
    return Top.takeError();
  // -U0: hunks hold the changed lines only; no renames or external diff
  // tools, whatever the user's git configuration says.
  llvm::Expected<std::string> Diff = runGit(
      {"diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", Ref, "--"},
      Directory);
  if (!Diff)
    return Diff.takeError();
  return LineFilter::fromUnifiedDiff(*Diff, llvm::StringRef(*Top).trim());
}

} // namespace cuda_async_lint
