//===- Check.h - Base class of every cuda-async-lint check ------*- C++ -*-===//
//
// A check registers AST matchers, asks checks/analysis/ its question in
// run(), and reports Findings to a DiagnosticSink. It knows nothing of
// clang-tidy, of output formats or of I/O, so the standalone driver and the
// clang-tidy plugin run the very same objects.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_CHECK_H
#define CUDA_ASYNC_LINT_CHECK_H

#include "cuda-async-lint/CheckOptions.h"
#include "cuda-async-lint/Finding.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include <set>
#include <string>
#include <utility>

namespace cuda_async_lint {

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(llvm::StringRef Id, DiagnosticSink &Sink) : Id(Id), Sink(Sink) {}
  ~Check() override;

  /// Adds this check's matchers to \p Finder, with this check as callback.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

  /// Writes the options in effect, for clang-tidy --dump-config.
  virtual void storeOptions(StoreOption Store) const { (void)Store; }

  llvm::StringRef getID() const override { return Id; }
  void onStartOfTranslationUnit() final;
  void onEndOfTranslationUnit() final;

protected:
  /// Reports \p F under this check's id, once per location and message: the
  /// instantiations of a template share the template's spelled locations.
  void report(Finding F, clang::ASTContext &Context);

  /// Drops what a check cached for the translation unit that ended.
  virtual void resetTranslationUnit() {}

private:
  std::string Id;
  DiagnosticSink &Sink;
  std::set<std::pair<clang::SourceLocation::UIntTy, std::string>> Reported;
  /// Per instantiated function a finding was in: its instantiation chain.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<FindingNote>> Chains;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_CHECK_H
