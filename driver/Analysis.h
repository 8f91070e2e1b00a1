//===- Analysis.h - Running the checks over translation units ---*- C++ -*-===//

#ifndef CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
#define CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H

#include "CheckSelection.h"
#include "CompileCommands.h"
#include "Report.h"

namespace cuda_async_lint {

struct AnalysisOptions {
  const LintCompilationDatabase *Database = nullptr;
  clang::tooling::ArgumentsAdjuster Adjuster;
  CheckSelection Checks;
  /// Translation units analysed at once; 0 picks the number of cores.
  unsigned Jobs = 0;
};

/// Parses and checks each of \p Files, in parallel. A file that fails to
/// parse contributes its errors, not findings: an AST rebuilt around errors
/// would make findings up. Errors confined to device-only functions do not
/// touch the host code: such a file is analysed, its errors noted.
Report analyzeFiles(const std::vector<std::string> &Files,
                    const AnalysisOptions &Options);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_ANALYSIS_H
