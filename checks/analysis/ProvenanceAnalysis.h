//===- ProvenanceAnalysis.h - Provenance across a TU ------------*- C++ -*-===//
//
// The provenance analyses of one translation unit, shared by its checks:
// each function's dataflow, built on first use; function summaries, so an
// allocation wrapper or an out-parameter allocator gives its provenance at
// its call sites; and field summaries, the join of every store to a field in
// the translation unit. Summaries are computed on demand, callees first; a
// recursive call (a function whose analysis is under way) is opaque.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H

#include "HostProvenance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace cuda_async_lint {

class ProvenanceAnalysis : public SummaryProvider {
public:
  explicit ProvenanceAnalysis(clang::ASTContext &Ctx) : Ctx(Ctx) {}

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

private:
  const clang::FunctionDecl *definition(const clang::FunctionDecl *FD) const;
  const Sites &sites();

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<FunctionProvenance>>
      Functions;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  llvm::DenseMap<const clang::FieldDecl *, PointerValue> Fields;
  llvm::DenseSet<const clang::FieldDecl *> FieldsInProgress;
  std::optional<Sites> Index;
  std::optional<llvm::DenseSet<const void *>> RegisteredOrigins;
  llvm::DenseMap<const clang::ParmVarDecl *, PointerValue> Parameters;
  llvm::DenseSet<const clang::ParmVarDecl *> ParametersInProgress;
  /// Some registration's memory is a std::vector's or std::string's.
  bool RegistersContainerStorage = false;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCEANALYSIS_H
