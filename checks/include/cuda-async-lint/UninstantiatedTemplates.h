//===- UninstantiatedTemplates.h - Templates a unit never ran ---*- C++ -*-===//
//
// The checks analyse a template's code in its instantiations. A header
// analysed through one unit that includes it (the language server's
// headers) shows nothing for a template that unit never instantiates,
// though another unit would report it: the language server says so.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_UNINSTANTIATEDTEMPLATES_H
#define CUDA_ASYNC_LINT_UNINSTANTIATEDTEMPLATES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cuda_async_lint {

struct UninstantiatedTemplate {
  /// 'push', 'Staging<T>::upload'.
  std::string Name;
  /// Where it is defined in the file (1-based).
  unsigned Line = 0;
};

/// The function templates and member functions of class templates defined
/// in \p File (a real path) whose code calls the CUDA or HIP API or
/// launches a kernel (what the checks look at) and that this unit
/// instantiates nowhere, in the order of the file.
std::vector<UninstantiatedTemplate>
uninstantiatedTemplates(clang::ASTContext &Ctx, llvm::StringRef File);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_UNINSTANTIATEDTEMPLATES_H
