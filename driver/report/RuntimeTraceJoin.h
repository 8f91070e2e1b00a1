//===- RuntimeTraceJoin.h - Static findings beside a traced run -*- C++ -*-===//
//
// --runtime-trace: joins the findings with what cuda-async-trace recorded of
// a run of the program. A finding whose line (or a note's line) the run
// executed is confirmed, with the measured cost, when the trace shows the
// same check there, and marked exercised otherwise; one whose lines never
// ran is marked not exercised. The trace's runtime findings that no finding
// covers become findings of their own, found at run time: the analysis's
// misses.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_DRIVER_RUNTIMETRACEJOIN_H
#define CUDA_ASYNC_LINT_DRIVER_RUNTIMETRACEJOIN_H

#include "Report.h"
#include "Trace.h"

#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cuda_async_lint {

class RuntimeTraceJoin {
public:
  /// \p TracePath: as the user gave it, for the notes. \p SourceRoot: file
  /// names in the trace (from the program's DWARF, perhaps built elsewhere)
  /// match the analysed files by their path under it.
  RuntimeTraceJoin(cuda_async_trace::Trace T, std::string TracePath,
                   std::string SourceRoot);

  /// Marks each finding with what the trace saw, and adds the note the text
  /// report prints.
  void annotate(std::vector<ResolvedFinding> &Findings);

  /// The runtime findings that no annotated finding covers, in files among
  /// \p AnalysedFiles (absolute paths), as findings found at run time.
  /// \p Elsewhere counts those in other files.
  std::vector<ResolvedFinding>
  uncovered(llvm::ArrayRef<std::string> AnalysedFiles, size_t &Elsewhere);

private:
  /// Whether the trace's \p TraceFile names the analysed \p File.
  bool sameFile(llvm::StringRef TraceFile, llvm::StringRef File) const;
  /// \p L as a location in one of \p AnalysedFiles, or in a file of the
  /// program under the source root; std::nullopt elsewhere. \p LineText,
  /// if given, gets the text of its line.
  std::optional<FileLocation>
  localLocation(const cuda_async_trace::SourceLocation &L,
                llvm::ArrayRef<std::string> AnalysedFiles,
                std::string *LineText = nullptr) const;

  cuda_async_trace::Trace T;
  std::string TracePath;
  std::string SourceRoot;
  /// Runtime findings a static finding covers, by index.
  std::set<size_t> Covered;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_DRIVER_RUNTIMETRACEJOIN_H
