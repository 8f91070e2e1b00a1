//===- ProvenanceLattice.h - Facts of the provenance dataflow ---*- C++ -*-===//
//
// Per pointer variable: Unset (nothing stored yet: uninitialized or null),
// Known(kind, origins), or Unknown. Per allocation: whether it is registered
// with cudaHostRegister. Joins keep a kind only where every path agrees.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCELATTICE_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCELATTICE_H

#include "RegistrationFacts.h"
#include "api/MemoryKind.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"
#include <map>
#include <string>

namespace cuda_async_lint {

/// An allocation or declaration in another translation unit, as the program
/// summaries (summaries/ProgramSummaries.h) describe it. Owned by them, one
/// object per place, so that equal origins are equal pointers.
struct alignas(8) ExternalOrigin {
  /// The real path of its file, and where in it.
  std::string File;
  unsigned Line = 0, Column = 0;
  /// The note that describes it: "pinned memory allocated here with
  /// 'cudaMallocHost'".
  std::string Note;
  /// The call that must release it ("cudaFreeHost"); empty if it is no
  /// allocation or none can be named.
  std::string Releaser;

  /// "file:line:column": an origin's identity across translation units.
  std::string key() const;
};

/// Where memory came from: the allocating expression (a malloc call, a new
/// expression), the declaration that owns it (an array, a std::vector), or
/// either of those in another translation unit.
using Origin = llvm::PointerUnion<const clang::Stmt *, const clang::Decl *,
                                  const ExternalOrigin *>;

/// Questions asked of the program (summaries/ProgramQueries.h) whose
/// answers a value was made from, by number: reading the value records them
/// (ProgramQueries::use). An odd number marks an answer that only grows as
/// the program does (a join over its units).
using ProgramAnswers = llvm::SmallVector<unsigned, 0>;

/// Calls the hook recordProgramQueries installs: the answers \p Numbers
/// were read.
void readProgramAnswers(llvm::ArrayRef<unsigned> Numbers);
/// Installs \p Hook (null: none) as what readProgramAnswers calls.
void setProgramAnswerHook(void (*Hook)(llvm::ArrayRef<unsigned>));
/// Adds \p From to \p Into, which stays sorted and unique.
void addAnswers(ProgramAnswers &Into, llvm::ArrayRef<unsigned> From);

class PointerValue {
public:
  enum class Tag { Unset, Known, Unknown };

  static PointerValue unset() { return PointerValue(Tag::Unset); }
  static PointerValue unknown() { return PointerValue(Tag::Unknown); }
  static PointerValue known(MemoryKind K, Origin O);

  // What a reader asks of the value: each records the program's answers it
  // was made from (an answer is taken where it is read).
  Tag tag() const { return read(), T; }
  bool isKnown() const { return read(), T == Tag::Known; }
  /// Unknown without origins: it may point anywhere, and every join with
  /// it stays so.
  bool isTop() const { return read(), T == Tag::Unknown && Origins.empty(); }
  MemoryKind kind() const { return read(), Kind; }
  /// The allocations it may point into, in a stable order. An Unknown value
  /// may have them too: allocations of different kinds ('p' is malloc'ed on
  /// one path, cudaHostAlloc'ed on the other), which say what a
  /// cudaHostUnregister of it may undo, though not what kind it is.
  llvm::ArrayRef<Origin> origins() const { return read(), Origins; }
  /// isKnown() for a reader that stops at an unknown value: an unknown
  /// value stays unknown as the answers that only grow grow, so only its
  /// other answers are recorded.
  bool isKnownAsJoinsGrow() const;

  /// The same without recording: the dataflow's own bookkeeping, whose
  /// effects carry the value's answers on (its registration keys), or no
  /// reader sees.
  Tag peekTag() const { return T; }
  bool peekTop() const { return T == Tag::Unknown && Origins.empty(); }
  llvm::ArrayRef<Origin> peekOrigins() const { return Origins; }
  /// Unknown, where \p V (Unset: nothing stored, no call) says nothing:
  /// made from \p V's answers, which no longer only grow (a join that
  /// grows from Unset may make the value known).
  static PointerValue unknownForUnset(const PointerValue &V);

  /// The program's answers it was made from.
  llvm::ArrayRef<unsigned> answers() const { return Answers; }
  /// The same, none of them marked as only growing: for a value something
  /// else was chosen by (an Unset value growing may choose otherwise).
  ProgramAnswers answersAsChosen() const;
  /// This value, made from \p More answers too.
  PointerValue madeFrom(llvm::ArrayRef<unsigned> More) const {
    PointerValue V = *this;
    addAnswers(V.Answers, More);
    return V;
  }

  /// The least upper bound: Unset is the identity, different kinds give
  /// Unknown (with both sides' origins), too many origins give Unknown.
  /// It is made from both sides' answers.
  static PointerValue join(const PointerValue &A, const PointerValue &B);

  bool operator==(const PointerValue &O) const {
    return T == O.T && (T == Tag::Unset || Origins == O.Origins) &&
           (T != Tag::Known || Kind == O.Kind) && Answers == O.Answers;
  }
  bool operator!=(const PointerValue &O) const { return !(*this == O); }

private:
  explicit PointerValue(Tag T) : T(T) {}
  void read() const {
    if (!Answers.empty())
      readProgramAnswers(Answers);
  }
  Tag T;
  MemoryKind Kind = MemoryKind::Pageable;
  llvm::SmallVector<Origin, 2> Origins;
  ProgramAnswers Answers;
};

struct ProvenanceState {
  /// Tracked local pointers (and smart pointers, and arrays of pointers,
  /// whose elements share one value). A missing local is Unset; a missing
  /// parameter is Unknown.
  std::map<const clang::VarDecl *, PointerValue> Vars;
  /// What was stored through a T** or T*& parameter (an out-parameter),
  /// or into the elements of a local table of pointers (EscapeFinder's
  /// PointerTables). Missing means nothing was stored.
  std::map<const clang::VarDecl *, PointerValue> Pointees;
  /// Per object: what this function stored into a pointer field of a local
  /// struct ('h.data = ...') or of the struct a local pointer points to
  /// ('p->data = ...'), on every path, while nothing else may have written
  /// it. Missing: the field's summary.
  std::map<std::pair<const clang::VarDecl *, const clang::FieldDecl *>,
           PointerValue>
      Members;
  /// Registration facts this function established, keyed by an origin's
  /// opaque value, or by a pointer parameter for the memory it points to.
  RegistrationFacts Registered;
  /// The program's answers the registration facts were made from: what a
  /// call of another unit's function registers, the values whose origins
  /// keyed a fact. A lookup of any fact (or of its absence) reads them.
  ProgramAnswers RegistrationAnswers;

  PointerValue get(const clang::VarDecl *VD) const;
  /// A weak update of the elements of table \p VD (Pointees).
  void storeElement(const clang::VarDecl *VD, PointerValue V);
  const RegistrationFact *registration(const void *Key) const;
  /// Joins \p Other in (RegistrationFacts::join says how the function's
  /// own allocations join).
  void join(const ProvenanceState &Other);

  bool operator==(const ProvenanceState &O) const {
    return Vars == O.Vars && Pointees == O.Pointees && Members == O.Members &&
           Registered == O.Registered &&
           RegistrationAnswers == O.RegistrationAnswers;
  }
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_PROVENANCELATTICE_H
