//===- SourceRoot.cpp -----------------------------------------------------===//

#include "SourceRoot.h"
#include "support/PathComponents.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

namespace {

/// The deepest directory that holds every file.
std::string commonDirectory(const std::vector<std::string> &Files) {
  std::string Common(llvm::sys::path::parent_path(Files.front()));
  for (const std::string &F : Files)
    while (!Common.empty() && !isPathUnder(F, Common))
      Common = std::string(llvm::sys::path::parent_path(Common));
  return Common;
}

} // namespace

llvm::Expected<std::string>
chooseSourceRoot(llvm::StringRef Option, const std::vector<std::string> &Files,
                 llvm::StringRef WorkingDirectory) {
  if (!Option.empty()) {
    llvm::SmallString<256> Dir(Option);
    llvm::sys::path::make_absolute(WorkingDirectory, Dir);
    llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
    if (!llvm::sys::fs::is_directory(Dir))
      return llvm::createStringError("--source-root='%s' is not a directory",
                                     Option.str().c_str());
    return std::string(Dir.str().rtrim("/"));
  }
  if (!Files.empty()) {
    // .git is a directory in a clone, a file in a linked work tree or a
    // submodule: either marks the top of a work tree.
    for (std::string Dir = commonDirectory(Files); !Dir.empty();
         Dir = std::string(llvm::sys::path::parent_path(Dir))) {
      llvm::SmallString<256> Git(Dir);
      llvm::sys::path::append(Git, ".git");
      if (llvm::sys::fs::exists(Git))
        return Dir;
      if (llvm::sys::path::parent_path(Dir) == Dir)
        break;
    }
  }
  return WorkingDirectory.str();
}

} // namespace cuda_async_lint
