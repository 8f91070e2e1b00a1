//===- CompileCommands.h - How each file is parsed --------------*- C++ -*-===//
//
// The compilation database (compile_commands.json from -p, the arguments
// after --, or defaults by file extension) and the adjustments every command
// gets: nvcc and hipcc flags translated, CUDA and HIP parsed for the host side
// only against the chosen CUDA and HIP declarations, and clang's own resource
// directory.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDS_H
#define CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDS_H

#include "CudaToolkit.h"
#include "RocmInstallation.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// The language a file is analysed as when no command names one.
enum class SourceLanguage { Cuda, Hip, Cxx, C };

/// By extension: .cu/.cuh are CUDA; .hip is HIP; .c is C; .cc, .cpp, .cxx,
/// .C, .c++ and headers are C++. std::nullopt for anything else.
std::optional<SourceLanguage> languageOfFile(llvm::StringRef Path);

/// A compilation database whose nvcc and hipcc commands read as clang
/// commands.
class LintCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit LintCompilationDatabase(
      std::unique_ptr<clang::tooling::CompilationDatabase> Base);

  /// The commands for \p File, or why there are none (not listed, an nvcc
  /// options file that cannot be read).
  llvm::Expected<std::vector<clang::tooling::CompileCommand>>
  commandsFor(llvm::StringRef File) const;

  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override;
  std::vector<std::string> getAllFiles() const override;

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Base;
};

/// Loads BUILD_DIR/compile_commands.json (or \p BuildPath itself if it names
/// the file). Files it does not list get the command of their nearest
/// sibling, as clang-tidy does.
llvm::Expected<std::unique_ptr<LintCompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildPath);

/// Commands from the arguments after '--', or, when there are none, a
/// default command per file by its extension.
std::unique_ptr<LintCompilationDatabase>
makeCommandLineDatabase(std::optional<std::vector<std::string>> ExtraArgs);

/// The offload language (CUDA or HIP) the command \p Args compiles \p File
/// as: its -x, else the file's extension. std::nullopt for C and C++.
std::optional<SourceLanguage>
offloadLanguage(const std::vector<std::string> &Args, llvm::StringRef File);

/// The CUDA and HIP declarations chosen for the run.
struct GpuHeaders {
  CudaHeaders Cuda;
  HipHeaders Hip;
};

/// What clang needs to see a file as nvcc's (hipcc's) host pass does: its
/// language, the host side only, the chosen CUDA (HIP) declarations,
/// thrust/cub/libcu++ and nvcc's host declarations; clang's unknown flags
/// dropped. Usable by any clang tool (--export-compile-commands).
clang::tooling::ArgumentsAdjuster
makeHostViewAdjuster(const GpuHeaders &Headers);

/// The adjustments every command gets before the driver parses it: the host
/// view, no warnings, clang's resource directory.
clang::tooling::ArgumentsAdjuster makeCommandAdjuster(const GpuHeaders &Headers,
                                                      std::string ResourceDir);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_COMPILECOMMANDS_H
