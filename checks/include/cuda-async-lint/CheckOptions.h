//===- CheckOptions.h - How a check reads its options -----------*- C++ -*-===//
//
// A check's options are clang-tidy's CheckOptions ("<check>.<Name>: value" in
// a .clang-tidy file, --config or --config-file). Both front-ends read them
// through clang-tidy's ClangTidyCheck::OptionsView (TidyCheckAdaptor), so a
// value means the same in the driver and in clang-tidy with the plugin.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_CHECKOPTIONS_H
#define CUDA_ASYNC_LINT_CHECKOPTIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

class CheckOptions {
public:
  virtual ~CheckOptions();
  /// The check's own option \p Name, if set.
  virtual std::optional<std::string> local(llvm::StringRef Name) const = 0;
  /// A global option \p Name (no check prefix), if set.
  virtual std::optional<std::string> global(llvm::StringRef Name) const = 0;
  /// Says, as clang-tidy says of a bad value, that \p Value of the check's
  /// option \p Name is not \p Expected; the check keeps its default.
  virtual void invalid(llvm::StringRef Name, llvm::StringRef Value,
                       llvm::StringRef Expected) const = 0;
  /// Says that the configuration cannot be used as it is: \p Message.
  virtual void problem(llvm::StringRef Message) const = 0;

  /// The check's option \p Name as a byte count or other non-negative
  /// integer, else \p Default.
  uint64_t unsignedOr(llvm::StringRef Name, uint64_t Default) const;
  /// A global option's names, separated by ';' or ',' as clang-tidy's lists.
  std::vector<std::string> globalList(llvm::StringRef Name) const;
};

/// Options nobody set: every check's defaults.
class DefaultCheckOptions : public CheckOptions {
public:
  std::optional<std::string> local(llvm::StringRef) const override {
    return std::nullopt;
  }
  std::optional<std::string> global(llvm::StringRef) const override {
    return std::nullopt;
  }
  void invalid(llvm::StringRef, llvm::StringRef,
               llvm::StringRef) const override {}
  void problem(llvm::StringRef) const override {}
};

/// Where a check writes the options in effect (clang-tidy --dump-config).
using StoreOption =
    llvm::function_ref<void(llvm::StringRef Name, std::string Value)>;

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_CHECKOPTIONS_H
