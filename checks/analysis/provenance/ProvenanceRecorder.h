//===- ProvenanceRecorder.h - What the last pass keeps ----------*- C++ -*-===//
//
// What the provenance analysis keeps of a function for its questions:
// the state before each CUDA call, the values returned and stored.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCERECORDER_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCERECORDER_H

#include "ProvenanceDataflow.h"
#include <map>
#include <vector>

namespace cuda_async_lint::provenance {

/// Records, while the reporting pass replays a block, the state before each
/// CUDA API call and delete expression (the part of it the call's pointers
/// can read), the values returned, and the values stored into fields.
class Recorder {
public:
  Recorder(
      const ProvenanceDataflow &Dataflow,
      std::map<const clang::CallExpr *, std::vector<PointerValue>> &Arguments,
      std::map<const clang::Stmt *, ProvenanceState> &StateAt,
      std::map<const clang::ValueDecl *, PointerValue> &Stores,
      PointerValue &Returns, bool ProgramCalls)
      : Dataflow(Dataflow), StateAt(StateAt), Arguments(Arguments),
        Stores(Stores), Returns(Returns), ProgramCalls(ProgramCalls) {}

  /// Records what \p Element needs kept, in the state \p S before it.
  void observe(const clang::CFGElement &Element, const ProvenanceState &S);

private:
  /// The state before \p At, joined with what another run (a value of a
  /// fixed flag) saw there.
  void record(const clang::Stmt *At, const ProvenanceState &S);

  /// Stores the value of \p Value into \p D, unless it copies the same
  /// field of another object (copy constructors and assignments), which
  /// adds nothing to the field's provenance.
  void store(const clang::ValueDecl *D, const clang::Expr *Value,
             const Evaluator &Eval);

  void store(const clang::ValueDecl *D, PointerValue V);

  const ProvenanceDataflow &Dataflow;
  std::map<const clang::Stmt *, ProvenanceState> &StateAt;
  std::map<const clang::CallExpr *, std::vector<PointerValue>> &Arguments;
  std::map<const clang::ValueDecl *, PointerValue> &Stores;
  PointerValue &Returns;
  /// Calls of external functions are recorded too: the program's
  /// summaries are being made, or are whole.
  bool ProgramCalls;
};

} // namespace cuda_async_lint::provenance

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCERECORDER_H
