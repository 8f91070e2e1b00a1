//===- FindingCollector.h - The driver's DiagnosticSink ---------*- C++ -*-===//
//
// Resolves each Finding to file locations while its AST is alive, and records
// it as clang-tidy does: through a clang DiagnosticRenderer, as messages at
// file offsets (the warning, the notes clang adds for macro expansions, the
// finding's notes), to be printed later exactly as clang-tidy prints them.
// What clang-tidy would not show is dropped by clang-tidy's rules: NOLINT
// comments (by clang-tidy's NoLintDirectiveHandler), system headers, and the
// header filters of the file's configuration.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H
#define CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H

#include "cuda-async-lint/Finding.h"
#include "report/Report.h"
#include "llvm/Support/Regex.h"
#include <memory>

namespace clang {
namespace tidy {
class ClangTidyContext;
class NoLintDirectiveHandler;
} // namespace tidy
namespace tooling {
struct Diagnostic;
} // namespace tooling
} // namespace clang

namespace cuda_async_lint {

class FindingCollector : public DiagnosticSink {
public:
  /// \p Tidy holds the options of the file being analysed.
  explicit FindingCollector(clang::tidy::ClangTidyContext &Tidy);
  ~FindingCollector() override;

  void report(const Finding &F, clang::ASTContext &Context) override;

  std::vector<ResolvedFinding> take() { return std::move(Findings); }
  /// The findings NOLINT comments suppressed, each as "file:offset:check".
  std::vector<std::string> takeSuppressed() {
    return std::move(SuppressedKeys);
  }

private:
  bool relatesToUserCode(const clang::SourceManager &SM,
                         clang::SourceLocation Loc) const;
  void reportNoLintError(const clang::tooling::Diagnostic &E,
                         clang::ASTContext &Context);
  void record(const Finding &F, clang::ASTContext &Context, bool IsError);

  clang::tidy::ClangTidyContext &Tidy;
  std::unique_ptr<clang::tidy::NoLintDirectiveHandler> NoLint;
  std::unique_ptr<class NoLintIndex> NoLints;
  std::unique_ptr<llvm::Regex> HeaderFilter, ExcludeHeaderFilter;
  bool GateByWarningsAsErrors;
  std::vector<ResolvedFinding> Findings;
  std::vector<std::string> SuppressedKeys;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H
