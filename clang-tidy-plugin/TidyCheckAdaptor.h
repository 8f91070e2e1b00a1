//===- TidyCheckAdaptor.h - A cuda-async-lint check as a ClangTidyCheck ---===//
//
// One adaptor serves every check in both front-ends: it creates the check
// from the registry with its options read through clang-tidy's OptionsView,
// the check registers its own matchers and reports through this adaptor. In
// clang-tidy each Finding becomes diag() calls; the driver passes its own
// sink instead, which applies clang-tidy's NOLINT handler and filters. The
// plugin and the driver run the same objects, configured the same way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
#define CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H

#include "clang-tidy/ClangTidyCheck.h"
#include "cuda-async-lint/CheckNames.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/Basic/Diagnostic.h"

namespace cuda_async_lint {

class TidyCheckAdaptor : public clang::tidy::ClangTidyCheck,
                         private DiagnosticSink,
                         private CheckOptions {
public:
  /// \p Forward, if given, receives the findings instead of clang-tidy's
  /// diagnostics engine.
  TidyCheckAdaptor(const CheckInfo &Info, llvm::StringRef Name,
                   clang::tidy::ClangTidyContext *Ctx,
                   DiagnosticSink *Forward = nullptr)
      : ClangTidyCheck(Name, Ctx), Tidy(*Ctx),
        Impl(createCheck(Info, Forward ? *Forward : *this, *this)) {
    // In clang-tidy, a name spelt as one of ours that names none is said
    // once per file, by the first of our checks enabled (the driver fails
    // on it before it gets here).
    if (!Forward && firstEnabled() == Info.Id)
      warnUnknownNames();
  }

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override {
    Impl->registerMatchers(*Finder);
  }

  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override {
    Impl->storeOptions([&](llvm::StringRef Name, std::string Value) {
      Options.store(Opts, Name, Value);
    });
  }

private:
  llvm::StringRef firstEnabled() const {
    for (const CheckInfo &C : allChecks())
      if (Tidy.isCheckEnabled(C.Id))
        return C.Id;
    return {};
  }
  void warnUnknownNames() const {
    const clang::tidy::ClangTidyOptions &O = Tidy.getOptions();
    if (O.Checks)
      for (const UnknownCheckName &U : unknownCheckNames(*O.Checks))
        Tidy.configurationDiag("%0") << describe(U, "Checks");
    if (O.WarningsAsErrors)
      for (const UnknownCheckName &U : unknownCheckNames(*O.WarningsAsErrors))
        Tidy.configurationDiag("%0") << describe(U, "WarningsAsErrors");
  }

  void report(const Finding &F, clang::ASTContext &) override {
    {
      auto Diag = diag(F.Loc, "%0") << F.Message;
      for (const FixIt &Fix : F.Fixes)
        Diag << clang::FixItHint::CreateReplacement(Fix.Range, Fix.Replacement);
    }
    for (const FindingNote &Note : F.Notes)
      diag(Note.Loc, "%0", clang::DiagnosticIDs::Note) << Note.Message;
  }

  std::optional<std::string> local(llvm::StringRef Name) const override {
    if (std::optional<llvm::StringRef> V = Options.get(Name))
      return V->str();
    return std::nullopt;
  }
  std::optional<std::string> global(llvm::StringRef Name) const override {
    const auto &All = Tidy.getOptions().CheckOptions;
    if (auto It = All.find(Name); It != All.end())
      return It->getValue().Value;
    return std::nullopt;
  }
  void invalid(llvm::StringRef Name, llvm::StringRef Value,
               llvm::StringRef Expected) const override {
    // clang-tidy's own wording for a value it cannot parse.
    Tidy.configurationDiag("invalid configuration value '%0' for option "
                           "'%1'; expected %2")
        << Value << (getID() + "." + Name).str() << Expected;
  }
  void problem(llvm::StringRef Message) const override {
    Tidy.configurationDiag("%0") << Message;
  }

  clang::tidy::ClangTidyContext &Tidy;
  std::unique_ptr<Check> Impl;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_TIDYCHECKADAPTOR_H
