//===- FindingCollector.h - The driver's DiagnosticSink ---------*- C++ -*-===//
//
// Resolves each Finding to file locations while its AST is alive, and records
// it as clang-tidy does: through a clang DiagnosticRenderer, as messages at
// file offsets (the warning, the notes clang adds for macro expansions, the
// finding's notes), to be printed later exactly as clang-tidy prints them.
// Findings suppressed by NOLINT comments are dropped, as in clang-tidy.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H
#define CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H

#include "Report.h"
#include "cuda-async-lint/Finding.h"
#include <map>

namespace cuda_async_lint {

/// Where a buffer's NOLINTBEGIN and NOLINTEND lines are, found once per
/// buffer: a file with many findings must not be rescanned for each.
class NolintBlocks {
public:
  explicit NolintBlocks(llvm::StringRef Buffer);
  /// True if a NOLINTBEGIN naming \p CheckId is open before the line that
  /// starts at \p LineBegin.
  bool isOpenAt(llvm::StringRef Buffer, unsigned LineBegin,
                llvm::StringRef CheckId) const;

private:
  std::vector<unsigned> DirectiveLines; ///< Their first offsets, in order.
};

class FindingCollector : public DiagnosticSink {
public:
  void report(const Finding &F, clang::ASTContext &Context) override;

  std::vector<ResolvedFinding> take() { return std::move(Findings); }

private:
  std::vector<ResolvedFinding> Findings;
  std::map<const char *, NolintBlocks> BlocksByBuffer;
};

/// True if a NOLINT comment suppresses check \p CheckId on the line holding
/// \p Offset of \p Buffer: NOLINT on that line, NOLINTNEXTLINE on the line
/// before, or an open NOLINTBEGIN block; each optionally limited to
/// '(glob,...)'.
bool isSuppressedByNolint(llvm::StringRef Buffer, unsigned Offset,
                          llvm::StringRef CheckId);
bool isSuppressedByNolint(llvm::StringRef Buffer, unsigned Offset,
                          llvm::StringRef CheckId, const NolintBlocks &Blocks);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_FINDINGCOLLECTOR_H
