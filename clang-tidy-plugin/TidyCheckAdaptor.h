//===- TidyCheckAdaptor.h - A cuda-async-lint check as a ClangTidyCheck ---===//
//
// One template adapts every check: the check registers its own matchers and
// reports through a sink that turns each Finding into diag() calls, so the
// plugin and the driver run the same objects and cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
#define CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cuda-async-lint/Check.h"
#include "cuda-async-lint/Finding.h"
#include "clang/Basic/Diagnostic.h"

namespace cuda_async_lint {

template <typename CheckT>
class TidyCheckAdaptor : public clang::tidy::ClangTidyCheck,
                         private DiagnosticSink {
public:
  TidyCheckAdaptor(llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx)
      : ClangTidyCheck(Name, Ctx), Impl(*this) {}

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override {
    Impl.registerMatchers(*Finder);
  }

private:
  void report(const Finding &F, clang::ASTContext &) override {
    {
      auto Diag = diag(F.Loc, "%0") << F.Message;
      for (const FixIt &Fix : F.Fixes)
        Diag << clang::FixItHint::CreateReplacement(Fix.Range, Fix.Replacement);
    }
    for (const FindingNote &Note : F.Notes)
      diag(Note.Loc, "%0", clang::DiagnosticIDs::Note) << Note.Message;
  }

  CheckT Impl;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
