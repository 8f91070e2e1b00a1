//===- TidyCheckAdaptor.h - A cuda-async-lint check as a ClangTidyCheck ---===//
//
// One adaptor serves every check: it creates the check from the registry,
// the check registers its own matchers and reports through this adaptor,
// which turns each Finding into diag() calls. The plugin and the driver run
// the same objects and cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
#define CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/Basic/Diagnostic.h"

namespace cuda_async_lint {

class TidyCheckAdaptor : public clang::tidy::ClangTidyCheck,
                         private DiagnosticSink {
public:
  TidyCheckAdaptor(const CheckInfo &Info, llvm::StringRef Name,
                   clang::tidy::ClangTidyContext *Ctx)
      : ClangTidyCheck(Name, Ctx), Impl(Info.Create(*this)) {}

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override {
    Impl->registerMatchers(*Finder);
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

  std::unique_ptr<Check> Impl;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
