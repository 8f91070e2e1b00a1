//===- Finding.h - One diagnostic produced by a check -----------*- C++ -*-===//
//
// A Finding is what every check produces and every front-end renders: the
// clang-tidy adaptor turns it into diag() calls, the driver into text, JSON or
// SARIF. Locations stay clang SourceLocations; the front-ends resolve them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_FINDING_H
#define CUDA_ASYNC_LINT_FINDING_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace cuda_async_lint {

/// A note pointing at another place involved in the finding (the allocation,
/// the async operation, the stream).
struct FindingNote {
  clang::SourceLocation Loc;
  std::string Message;
};

/// A mechanical fix: replace the characters of Range with Replacement.
struct FixIt {
  clang::CharSourceRange Range;
  std::string Replacement;
};

struct Finding {
  std::string CheckId;
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::vector<FixIt> Fixes;
  /// The function whose code the finding is in, where the check knows it:
  /// in an instantiation of a template, Check::report adds the chain of
  /// instantiations that led to it as notes.
  const clang::FunctionDecl *Function = nullptr;
};

/// Where checks send their findings. One implementation per front-end.
class DiagnosticSink {
public:
  virtual ~DiagnosticSink();
  /// \p Context is the AST the finding's locations belong to; it is alive for
  /// the duration of the call only.
  virtual void report(const Finding &F, clang::ASTContext &Context) = 0;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_FINDING_H
