//===- ExportCompileCommands.cpp ------------------------------------------===//

#include "ExportCompileCommands.h"
#include "support/AtomicFile.h"
#include "support/JsonDocument.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

llvm::Expected<std::string> exportCompileCommands(
    const LintCompilationDatabase &Database, llvm::StringRef BuildPath,
    const std::vector<std::string> &Files,
    const clang::tooling::ArgumentsAdjuster &HostView, llvm::StringRef Dir) {
  llvm::SmallString<256> Source(BuildPath);
  if (llvm::sys::fs::is_directory(Source))
    llvm::sys::path::append(Source, "compile_commands.json");
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "compile_commands.json");
  if (llvm::sys::fs::equivalent(Source, Path))
    return llvm::createStringError(
        "--export-compile-commands='%s' would overwrite the database it "
        "translates",
        Dir.str().c_str());
  nlohmann::json Entries = nlohmann::json::array();
  for (const std::string &File : Files) {
    auto Commands = Database.commandsFor(File);
    if (!Commands)
      return Commands.takeError();
    for (const clang::tooling::CompileCommand &C : *Commands)
      Entries.push_back({{"directory", C.Directory},
                         {"file", C.Filename},
                         {"arguments", HostView(C.CommandLine, C.Filename)}});
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return llvm::createStringError("cannot create '%s': %s", Dir.str().c_str(),
                                   EC.message().c_str());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeJsonDocument(Entries, OS);
  if (llvm::Error E = writeFileAtomically(Path, Text))
    return std::move(E);
  return std::to_string(Entries.size()) + " compile commands to '" +
         std::string(Path) + "'";
}

} // namespace cuda_async_lint
