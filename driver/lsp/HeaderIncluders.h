//===- HeaderIncluders.h - A source file to analyse a header in -*- C++ -*-===//
//
// A header (.h, .cuh, .hpp, ...) has no compile command of its own, and
// parsed alone it seldom means anything: its types and macros come from
// the files that include it. As clangd does, a header opened in the editor
// is analysed through a source file that includes it: an open document
// first, else a file of the compilation database or beside the header,
// found by its '#include' lines (by the header's file name, then resolved
// against the includer's directory and its -I paths), directly or through
// up to three headers that include it. The findings located in the header
// are the header's.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_LSP_HEADERINCLUDERS_H
#define CUDA_ASYNC_LINT_DRIVER_LSP_HEADERINCLUDERS_H

#include "compile/CompileCommands.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// Whether \p Path names a header by its extension.
bool isHeaderFile(llvm::StringRef Path);

/// Finds and remembers, per header, a source file that includes it.
class HeaderIncluders {
public:
  /// At most this many database files are read per search.
  static constexpr size_t MaxFilesRead = 4000;

  /// A source file that includes \p Header (absolute): one of \p Open
  /// (path, text: the editor's documents) if any does, else one of the
  /// files \p Database lists or the source files beside the header and in
  /// its parent directory, nearest first. None if no file does.
  std::optional<std::string>
  find(llvm::StringRef Header,
       const std::vector<std::pair<std::string, std::string>> &Open,
       const LintCompilationDatabase *Database);

private:
  std::map<std::string, std::string> Known;
};

/// Whether \p Text, the text of \p Includer, has an '#include' that names
/// \p Header (absolute): by a path that resolves to it from the includer's
/// directory or one of \p SearchDirs (asked only when a line names the
/// header's file name), or, when none resolves, by a path that ends with the
/// header's own trailing components.
bool includes(llvm::StringRef Text, llvm::StringRef Includer,
              llvm::StringRef Header,
              llvm::function_ref<std::vector<std::string>()> SearchDirs);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_LSP_HEADERINCLUDERS_H
