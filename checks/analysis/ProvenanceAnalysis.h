//===- ProvenanceAnalysis.h - Provenance across a TU ------------*- C++ -*-===//
//
// The provenance analyses of one translation unit, shared by its checks:
// each function's dataflow, built on first use; function summaries, so an
// allocation wrapper or an out-parameter allocator gives its provenance at
// its call sites; and field summaries, the join of every store to a field in
// the translation unit. Summaries are computed on demand, callees first; a
// recursive call (a function whose analysis is under way) is opaque.
//
// Where the program's summaries are installed (summaries/ProgramSummaries.h),
// functions, fields and call sites of the other translation units join in:
// a function defined elsewhere has its summary, a field the join of every
// unit's stores, a parameter of an external function what every call in the
// program passes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H

#include "../summaries/ProgramSummaries.h"
#include "HostProvenance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace cuda_async_lint {

/// True if a branch of \p Def's body (if, switch, ?:) tests a parameter
/// that is not a pointer: a flag such as 'release(p, isPinned)' chooses code
/// that one kind of memory never reaches, which call-site provenance would
/// then report.
bool branchesOnFlagParameter(const clang::FunctionDecl *Def);

class ProvenanceAnalysis : public SummaryProvider {
public:
  /// Draws on the program's summaries installed now, if any.
  explicit ProvenanceAnalysis(clang::ASTContext &Ctx);

  /// The analysis every check of the translation unit of \p Ctx shares; it
  /// lives as long as a check holds it.
  static std::shared_ptr<ProvenanceAnalysis>
  forTranslationUnit(clang::ASTContext &Ctx);

  /// The analysis of \p FD's body (of its definition).
  const FunctionProvenance &function(const clang::FunctionDecl *FD);

  const FunctionSummary *summary(const clang::FunctionDecl *FD) override;
  bool isOpaque(const clang::FunctionDecl *FD) override;
  PointerValue field(const clang::FieldDecl *FD) override;
  bool registeredAnywhere(Origin O) override;
  PointerValue parameter(const clang::ParmVarDecl *PD) override;
  bool recordsProgramCalls() override {
    return Summarizing || Program.holdsEveryCaller();
  }
  /// This translation unit is being summarized for the program
  /// (summarizeTranslationUnit): record what its external calls pass.
  void summarizeForProgram() { Summarizing = true; }

  /// The integer every call of \p PD's function passes for it, and the
  /// first such call (in source order): where the translation unit holds
  /// every call that this function's body runs for (internal linkage, or an
  /// inline function or template instantiation, which each translation unit
  /// analyses for its own calls), it is only ever called directly, and it
  /// never changes the parameter. A copy direction given as a parameter
  /// ('transfer(dev, cudaMemcpyHostToDevice)') is known this way.
  std::optional<std::pair<int64_t, const clang::CallExpr *>>
  constantParameter(const clang::ParmVarDecl *PD);

  /// The join of what this translation unit stores into \p FD (Unset if it
  /// stores nothing); \p Escaped tells if its address escapes here,
  /// \p Incomplete if a function that stores it is being analysed.
  PointerValue localField(const clang::FieldDecl *FD, bool &Escaped,
                          bool &Incomplete);
  /// The memory this translation unit registers with cudaHostRegister.
  llvm::ArrayRef<Origin> registeredOrigins();
  /// Some registration of this unit, or of the program, is a std::vector's
  /// or std::string's storage.
  bool registersContainerStorage();

  /// Where the translation unit stores into fields and registers memory.
  struct Sites {
    std::map<const clang::FieldDecl *, std::set<const clang::FunctionDecl *>>
        FieldStores;
    /// Fields whose address or reference is kept where stores through it
    /// cannot be followed.
    std::set<const clang::FieldDecl *> EscapedFields;
    std::vector<std::pair<const clang::FunctionDecl *, const clang::CallExpr *>>
        RegisterCalls;
    /// Every direct call of each function (canonical declaration), with the
    /// function that makes it.
    std::map<const clang::FunctionDecl *,
             std::vector<std::pair<const clang::FunctionDecl *,
                                   const clang::CallExpr *>>>
        CallsTo;
    /// Functions named other than as a call's callee (a function pointer,
    /// a reference), or called outside any function: their callers are
    /// not all known.
    std::set<const clang::FunctionDecl *> NotOnlyCalled;
  };
  const Sites &sites();

private:
  const clang::FunctionDecl *definition(const clang::FunctionDecl *FD) const;
  /// What the calls \p Calls of this unit pass as argument \p Index.
  PointerValue localArguments(
      llvm::ArrayRef<
          std::pair<const clang::FunctionDecl *, const clang::CallExpr *>>
          Calls,
      unsigned Index, bool &Incomplete);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionProvenance>>
      Functions;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  llvm::DenseMap<const clang::FieldDecl *, PointerValue> Fields;
  llvm::DenseSet<const clang::FieldDecl *> FieldsInProgress;
  std::optional<Sites> Index;
  std::optional<llvm::DenseSet<const void *>> RegisteredOrigins;
  std::vector<Origin> RegisteredList;
  ProgramView Program;
  bool Summarizing = false;
  llvm::DenseMap<const clang::ParmVarDecl *, PointerValue> Parameters;
  llvm::DenseSet<const clang::ParmVarDecl *> ParametersInProgress;
  /// Some registration's memory is a std::vector's or std::string's.
  bool RegistersContainerStorage = false;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H
