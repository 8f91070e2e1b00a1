//===- ExtraArgs.cpp ------------------------------------------------------===//

#include "ExtraArgs.h"

namespace cuda_async_lint {

clang::tooling::ArgumentsAdjuster
extraArgsAdjuster(const clang::tidy::ClangTidyOptions &Options) {
  if (!Options.ExtraArgsBefore && !Options.ExtraArgs)
    return nullptr;
  return
      [Before = Options.ExtraArgsBefore.value_or(std::vector<std::string>()),
       After = Options.ExtraArgs.value_or(std::vector<std::string>())](
          const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
        clang::tooling::CommandLineArguments Out = Args;
        auto At = Out.begin();
        if (At != Out.end() && !llvm::StringRef(*At).starts_with("-"))
          ++At; // The compiler's name.
        Out.insert(At, Before.begin(), Before.end());
        Out.insert(Out.end(), After.begin(), After.end());
        return Out;
      };
}

clang::tooling::ArgumentsAdjuster
parseAdjuster(clang::tooling::ArgumentsAdjuster Base,
              const clang::tidy::ClangTidyOptions &Options) {
  if (clang::tooling::ArgumentsAdjuster Extra = extraArgsAdjuster(Options))
    return clang::tooling::combineAdjusters(std::move(Base), std::move(Extra));
  return Base;
}

} // namespace cuda_async_lint
