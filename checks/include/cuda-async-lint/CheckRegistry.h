//===- CheckRegistry.h - The checks, as listed in Checks.def ----*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_CHECKREGISTRY_H
#define CUDA_ASYNC_LINT_CHECKREGISTRY_H

#include "cuda-async-lint/Check.h"
#include "cuda-async-lint/CheckOptions.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <type_traits>

namespace cuda_async_lint {

/// What a finding of the check costs (Checks.def).
enum class CheckKind { Performance, Correctness };
/// How the check decides: from provenance alone, or along paths.
enum class CheckPrecision { High, Medium };

/// What the front-ends need to know about one check: its id, its name (the
/// class without "Check", SARIF's rule name), kind and precision, its
/// one-line summary, the CUDA rule behind it (SARIF's fullDescription), and
/// how to create it.
struct CheckInfo {
  llvm::StringRef Id;
  llvm::StringRef Name;
  CheckKind Kind;
  CheckPrecision Precision;
  llvm::StringRef Summary;
  llvm::StringRef Rationale;
  std::unique_ptr<Check> (*Create)(DiagnosticSink &Sink,
                                   const CheckOptions &Options);
};

/// Defines the factory Checks.def declares for \p Class; one line in the
/// check's .cpp file. A check with options has the constructor (Sink,
/// Options); one without, (Sink).
#define CUDA_ASYNC_LINT_CHECK_FACTORY(Class)                                   \
  std::unique_ptr<Check> create##Class(DiagnosticSink &Sink,                   \
                                       const CheckOptions &Options) {          \
    if constexpr (std::is_constructible_v<Class, DiagnosticSink &,             \
                                          const CheckOptions &>)               \
      return std::make_unique<Class>(Sink, Options);                           \
    else                                                                       \
      return (void)Options, std::make_unique<Class>(Sink);                     \
  }

/// Creates the check \p Info describes, configured by \p Options: its own
/// options, and the project's allocators and releasers (ProjectApis.h) that
/// every check's analysis shares.
std::unique_ptr<Check> createCheck(const CheckInfo &Info, DiagnosticSink &Sink,
                                   const CheckOptions &Options);

/// Every check, in Checks.def order.
llvm::ArrayRef<CheckInfo> allChecks();

/// The check \p Id names, or null: clang-tidy's own diagnostics
/// (clang-tidy-nolint) and typos are no check of ours.
const CheckInfo *findCheck(llvm::StringRef Id);

/// The documentation page of check \p Id, relative to the repository root.
std::string checkDocPath(llvm::StringRef Id);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_CHECKREGISTRY_H
