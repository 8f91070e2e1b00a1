//===- ProgramQueries.h - What one unit asked of the program ----*- C++ -*-===//
//
// A translation unit's analysis reads the other units only through
// ProgramView's questions: the facts of a function defined elsewhere, the
// join of a field's stores, what a parameter's callers pass, whether a
// function is named other than as a callee, whether an origin or a
// container's storage is registered, whether the store holds every caller,
// whether there is a store at all. The analysis is a function of the unit
// and of those answers. So a result made against one store holds against
// another that answers every question alike: a whole-program run analyses
// each unit in the parse that summarizes it, against the summaries known
// then, and parses a unit again only if the program, once whole, answers one
// of its questions otherwise (docs/design.md, "One parse per unit").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_SUMMARIES_PROGRAMQUERIES_H
#define CUDA_ASYNC_LINT_SUMMARIES_PROGRAMQUERIES_H

#include "../analysis/provenance/CallEffects.h"
#include "../analysis/provenance/ProvenanceLattice.h"
#include "../analysis/sync/SyncSummary.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <string>
#include <vector>

namespace cuda_async_lint {

class ProgramSummaries;

/// One question of ProgramView's, as text: its kind, and the USR (or origin
/// key) and argument index it is about.
struct ProgramQuestion {
  enum class Kind {
    Installed,   ///< Is there a store?
    EveryCaller, ///< Does it hold every caller?
    /// What function Key (a USR) returns.
    Returns,
    /// What function Key stores through parameter Index.
    OutParam,
    /// What a call of function Key of Shape (CallEffects.h) does to its
    /// arguments and to the registrations: a call's effects, not the whole
    /// summary, so that "nothing is known of it" and a summary that does
    /// nothing to this call's arguments answer alike.
    CallEffect,
    /// What a call of function Key of Shape (SyncSummary.h) synchronizes.
    Syncs,
    /// What function Key does on the host to what parameter Index points
    /// to (ParameterHostUses.h).
    HostUse,
    Field, ///< What the units store into field Key.
    /// What field Key holds by the other units' stores alone: Field, unknown
    /// if none stores into it. Asked where this unit stores nothing, so
    /// that "no unit stores into it yet" and "its stores are unknown" are
    /// one answer.
    Stored,
    Argument, ///< What calls of Key pass as argument Index.
    /// What parameter Index of Key receives from the other units' calls
    /// alone: unknown if one names Key other than as a callee, or none
    /// calls it. Asked where this unit makes no call of Key.
    Parameter,
    NotOnlyCalled,       ///< Is Key named other than as a callee?
    Registered,          ///< Is the origin of key Key registered?
    RegistersContainers, ///< Is a container's storage registered?
  };
  Kind What = Kind::Installed;
  std::string Key;
  unsigned Index = 0;
  /// The call a question about a call is about (CallShape, SyncShape text).
  std::string Shape;

  /// "returns USR", "argument 2 USR", "call-effect o1;0p USR", "installed":
  /// what the record holds.
  std::string text() const;
  /// The inverse of text(); none for text it does not write.
  static std::optional<ProgramQuestion> parse(llvm::StringRef Text);
  /// What it asks, in words, its key a name ("what 'ns::f' returns"), for
  /// --verbose.
  std::string describe() const;
};

/// The name a USR spells ('c:@N@amgx@N@memory@F@cudaFreeHost#*v#' is
/// 'amgx::memory::cudaFreeHost'), or the USR itself where it spells none.
std::string nameOfUsr(llvm::StringRef Usr);

struct FunctionFacts;

/// An answer as a record compares it. A value: its tag, kind and origins
/// (each by its key, note and releaser), in a stable order. A call's
/// effects: each argument's that does something, then the registrations
/// the callee leaves.
std::string describeAnswer(const PointerValue &V);
std::string describeAnswer(const CallEffects &E);
std::string describeAnswer(const CallSyncs &S);
std::string describeAnswer(bool B);

/// The answer to \p Q, a question about a function (Returns, OutParam,
/// CallEffect, Syncs), of a program whose facts of it are \p F (null: no
/// unit defines it).
std::string answerAbout(const FunctionFacts *F, const ProgramQuestion &Q);

/// The answer \p Program (null: none installed) gives unit \p Unit (a main
/// file's real path, the unit's name in the store) to \p Q, as text.
std::string answer(const ProgramSummaries *Program, llvm::StringRef Unit,
                   const ProgramQuestion &Q);

/// The questions a unit's analysis asked, each with the answer it got.
class ProgramQueries {
public:
  /// True if \p Question (text()) has its answer already: ask it once.
  bool asked(llvm::StringRef Question) const {
    return Answers.count(Question.str());
  }
  void record(std::string Question, std::string Answer) {
    Answers.emplace(std::move(Question), std::move(Answer));
  }
  /// Holds \p Answer to \p Question until a value made from it is read
  /// (use()), and returns the number such a value carries (PointerValue's
  /// answers). \p Grows: the answer only grows as the program does (a
  /// join over its units).
  unsigned pending(const std::string &Question, std::string Answer, bool Grows);
  /// Records the pending answers \p Numbers (a value made from them was
  /// read).
  void use(llvm::ArrayRef<unsigned> Numbers);

  /// The unit that asks: a main file's real path, its name in the store.
  void setUnit(std::string File) { Unit = std::move(File); }

  /// True if \p Program (null: none) answers the unit every question as
  /// recorded: a result made with these answers is the result against
  /// \p Program.
  bool holdIn(const ProgramSummaries *Program) const {
    return !differenceIn(Program);
  }
  /// The first question \p Program answers otherwise, as text; none if it
  /// answers all of them alike.
  std::optional<std::string>
  differenceIn(const ProgramSummaries *Program) const;

  size_t size() const { return Answers.size(); }

  /// {"unit": ..., "answers": [[question, answer], ...]}, the questions in
  /// order.
  llvm::json::Value toJSON() const;
  static llvm::Expected<ProgramQueries> fromJSON(const llvm::json::Value &V);
  /// fromJSON of JSON text (FileResult::Queries).
  static llvm::Expected<ProgramQueries> parse(llvm::StringRef Text);

private:
  std::string Unit;
  std::map<std::string, std::string> Answers;
  /// Answers taken but not read yet: question, answer; numbered by place.
  std::vector<std::pair<std::string, std::string>> Pending;
  /// Which pending answers are recorded already: a value is read often.
  std::vector<bool> Used;
  std::map<std::string, unsigned> PendingNumber;
};

/// Makes \p Queries record every question asked of the program by the
/// analyses created from now on (null: none records).
void recordProgramQueries(ProgramQueries *Queries);

/// The record the analyses created now write to, or null.
ProgramQueries *programQueryRecord();

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_SUMMARIES_PROGRAMQUERIES_H
