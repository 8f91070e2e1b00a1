//===- ProvenanceAnalysis.h - Provenance across a TU ------------*- C++ -*-===//
//
// The provenance analyses of one translation unit, shared by its checks:
// each function's dataflow, built on first use; function summaries, so an
// allocation wrapper or an out-parameter allocator gives its provenance at
// its call sites; and field and global summaries, the join of every store to
// a field or a global pointer in the translation unit. Summaries are computed
// on demand, callees first; a recursive call (a function whose analysis is
// under way) is opaque.
//
// Where the program's summaries are installed (summaries/ProgramSummaries.h),
// functions, fields and call sites of the other translation units join in:
// a function defined elsewhere has its summary, a field the join of every
// unit's stores, a parameter of an external function what every call in the
// program passes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEANALYSIS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEANALYSIS_H

#include "CallEffects.h"
#include "FixedFlag.h"
#include "HostProvenance.h"
#include "RegistrationReads.h"
#include "analysis/code/FunctionCache.h"
#include "summaries/ProgramSummaries.h"
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

/// True if a call of \p FD may run an override: a virtual member function
/// neither it nor its class declares final.
bool isVirtualDispatch(const clang::FunctionDecl *FD);

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
  std::optional<unsigned> callAnswer(const clang::FunctionDecl *FD,
                                     const CallShape &Shape, bool Now) override;
  std::optional<unsigned> returnAnswer(const clang::FunctionDecl *FD) override;
  void noteOutParam(const clang::FunctionDecl *FD, unsigned Param) override;
  bool originRegistrationRead(Origin O, const clang::Expr *Arg,
                              const clang::FunctionDecl *Caller,
                              const clang::FunctionDecl *Callee) override;
  bool parameterRegistrationRead(const clang::ParmVarDecl *PD,
                                 const clang::Expr *Arg,
                                 const clang::FunctionDecl *Caller,
                                 const clang::FunctionDecl *Callee) override;
  PointerValue stored(const clang::ValueDecl *D) override;
  bool tracksGlobal(const clang::VarDecl *VD) override;
  PointerValue globalAtEntry(const clang::VarDecl *VD,
                             const clang::FunctionDecl *FD) override;
  bool mayStoreGlobal(const clang::FunctionDecl *Callee,
                      const clang::VarDecl *VD) override;
  bool registeredAnywhere(Origin O) override;
  bool writtenOnlyByMain(const clang::VarDecl *VD) override;
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

  /// The join of what this translation unit stores into the field or
  /// global \p D (Unset if it stores nothing); \p Escaped tells if its
  /// address escapes here (or, for a global, if it has an initializer other
  /// than null), \p Incomplete if a function that stores it is being
  /// analysed.
  PointerValue localStores(const clang::ValueDecl *D, bool &Escaped,
                           bool &Incomplete,
                           const clang::FunctionDecl *Except = nullptr);
  /// The memory this translation unit registers with cudaHostRegister.
  llvm::ArrayRef<Origin> registeredOrigins();
  /// Some registration of this unit, or of the program, is a std::vector's
  /// or std::string's storage.
  bool registersContainerStorage();

  /// Where the translation unit stores into fields and globals and
  /// registers memory.
  struct Sites {
    /// The functions that store into each field or global.
    std::map<const clang::ValueDecl *, std::set<const clang::FunctionDecl *>>
        Stores;
    /// Fields and globals whose address or reference is kept where stores
    /// through it cannot be followed (or, for a global, that something
    /// other than null initializes).
    std::set<const clang::ValueDecl *> Escaped;
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
  /// True if what a call of \p FD does comes from the program's summaries:
  /// it is defined in another unit (not a virtual call).
  bool fromProgram(const clang::FunctionDecl *FD) const;
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
  /// The functions that store into global \p VD or call one that does,
  /// by canonical declaration.
  const llvm::DenseSet<const clang::FunctionDecl *> &
  writers(const clang::VarDecl *VD);

  llvm::DenseMap<const clang::ValueDecl *, PointerValue> Variables;
  llvm::DenseSet<const clang::ValueDecl *> VariablesInProgress;
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::DenseSet<const clang::FunctionDecl *>>
      Writers;
  /// Answers given while a function they depend on was being analysed: a
  /// function analysed meanwhile is analysed again once, when asked for
  /// after every analysis under way has ended.
  unsigned IncompleteAnswers = 0;
  llvm::DenseSet<const clang::FunctionDecl *> Provisional;
  std::vector<std::unique_ptr<FunctionProvenance>> Superseded;
  std::optional<Sites> Index;
  std::optional<MainOnlyGlobals> FlagsOfMain;
  std::optional<llvm::DenseSet<const void *>> RegisteredOrigins;
  std::vector<Origin> RegisteredList;
  ProgramView Program;
  /// What each function's body can read of its registrations.
  const RegistrationReads &reads(const clang::FunctionDecl *FD);
  FunctionCache<std::unique_ptr<RegistrationReads>> Reads;
  bool Summarizing = false;
  llvm::DenseMap<const clang::ParmVarDecl *, PointerValue> Parameters;
  llvm::DenseSet<const clang::ParmVarDecl *> ParametersInProgress;
  /// Some registration's memory is a std::vector's or std::string's.
  bool RegistersContainerStorage = false;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEANALYSIS_H
