//===- ExportCompileCommands.cpp ------------------------------------------===//

#include "ExportCompileCommands.h"
#include "AtomicFile.h"
#include "JsonDocument.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

llvm::Expected<size_t>
exportCompileCommands(const LintCompilationDatabase &Database,
                      const std::vector<std::string> &Files,
                      const clang::tooling::ArgumentsAdjuster &HostView,
                      llvm::StringRef Dir) {
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
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "compile_commands.json");
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeJsonDocument(Entries, OS);
  if (llvm::Error E = writeFileAtomically(Path, Text))
    return std::move(E);
  return Entries.size();
}

} // namespace cuda_async_lint
