//===- ProvenanceEvaluator.h - Pointer values in a state --------*- C++ -*-===//
//
// What an expression's pointer value points to in one state of the
// provenance dataflow: locals, fields, globals, allocations, calls.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEVALUATOR_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEVALUATOR_H

#include "HostProvenance.h"
#include "ProvenanceLattice.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace cuda_async_lint::provenance {

/// Evaluates expressions to PointerValues in one dataflow state.
class Evaluator {
public:
  Evaluator(const ProvenanceState &S,
            const llvm::DenseSet<const clang::VarDecl *> &Escaped,
            const llvm::DenseSet<const clang::VarDecl *> &PointerTables,
            SummaryProvider *Summaries, const clang::FunctionDecl *Function)
      : S(S), Escaped(Escaped), PointerTables(PointerTables),
        Summaries(Summaries), Function(Function) {}

  /// What global \p VD holds here: what this function stored into it, or
  /// what it held when the function began.
  PointerValue global(const clang::VarDecl *VD) const;

  /// What the pointer value of \p E points to.
  PointerValue pointer(const clang::Expr *E) const;

  /// What a smart pointer is initialized or assigned from.
  PointerValue smartPointerSource(const clang::Expr *E) const;

  /// The T** or T*& parameter \p E designates, unless it was reassigned.
  const clang::ParmVarDecl *outParameter(const clang::Expr *E) const;

  /// Keys of the registration facts for the memory \p E points to: its
  /// origins, or the unreassigned pointer parameter it is derived from.
  /// The program's answers its value was made from go to \p Made: a fact
  /// written under these keys, or not written, is read by lookups.
  llvm::SmallVector<const void *, 2>
  registrationKeys(const clang::Expr *E, ProgramAnswers *Made = nullptr) const;

  /// True if a registration a call of \p Callee makes of what \p Arg
  /// points to (its registrationKeys) may be read later in this function;
  /// the answers its value was made from go to \p Made.
  bool registrationRead(const clang::Expr *Arg,
                        const clang::FunctionDecl *Callee,
                        ProgramAnswers &Made) const;

  /// True if memory global \p VD holds, unknown here, can be named by the
  /// global itself: it holds the same throughout this function, which
  /// neither stores into it nor calls a function that does.
  bool keysByGlobal(const clang::VarDecl *VD) const;

  /// Keys of the registration facts for the memory global \p VD holds;
  /// the answers its value was made from go to \p Made.
  llvm::SmallVector<const void *, 2>
  globalRegistrationKeys(const clang::VarDecl *VD, ProgramAnswers &Made) const;

  /// The registration keys of the allocations \p V may point into (its
  /// answers are the caller's to carry on).
  static llvm::SmallVector<const void *, 2> originKeys(const PointerValue &V);

private:
  static bool isNothrowPlacement(const clang::CXXNewExpr *New);

  PointerValue value(const clang::VarDecl *VD) const;

  /// The value a pointer lvalue holds.
  PointerValue loaded(const clang::Expr *LValue) const;

  /// The provenance of the storage that lvalue \p E designates.
  PointerValue storage(const clang::Expr *E) const;

  /// '&count_' in a member function: a data member of '*this', an object
  /// in host memory (the heap, the stack, a global), pageable. Not when the
  /// class or a base declares its own operator new (the unified-memory
  /// "Managed" base class allocates with cudaMallocManaged).
  PointerValue thisMember(const clang::MemberExpr *ME) const;

  static bool declaresOperatorNew(const clang::CXXRecordDecl *RD);

  /// The storage a std container object owns: a local container's, and
  /// that of any std::vector or std::string with the default allocator,
  /// whichever variable, reference or data member names it (the heap
  /// memory std::allocator returns is pageable).
  PointerValue container(const clang::Expr *Object) const;

  /// v.data(), s.c_str(), v.front(), v.at(i), p.get(), and calls of methods
  /// with summaries.
  PointerValue memberCall(const clang::CXXMemberCallExpr *MC) const;

  PointerValue call(const clang::CallExpr *Call) const;

  const ProvenanceState &S;
  const llvm::DenseSet<const clang::VarDecl *> &Escaped;
  const llvm::DenseSet<const clang::VarDecl *> &PointerTables;
  SummaryProvider *Summaries;
  const clang::FunctionDecl *Function;
};

} // namespace cuda_async_lint::provenance

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCEEVALUATOR_H
