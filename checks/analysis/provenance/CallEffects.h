//===- CallEffects.h - What a call does to its arguments --------*- C++ -*-===//
//
// What a call of a function the provenance dataflow does not step into does
// to the pointers it is given: stores through out-parameters, registrations
// of what they point to, and, for a function nothing is known of, anything
// (it may pin or unpin the memory, or store any pointer through '&p'). It is
// a function of the callee's summary (or its absence) and of the call's
// shape: what the caller's analysis knows of each argument at the call.
//
// For a function of another translation unit, the summary is the program's
// answer. The effects, rendered (summaries/ProgramQueries.h), are what a
// unit's analysis asked of the program: two answers with the same effects
// on this call give the same result, though one is "nothing is known" and
// the other a summary (an error handler given only strings, say).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_CALLEFFECTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_CALLEFFECTS_H

#include "HostProvenance.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_async_lint {

/// What the caller's analysis knows of one argument when the call runs.
struct ArgumentShape {
  /// The parameter it binds; none for a variadic argument.
  std::optional<unsigned> Param;
  /// It has pointer type.
  bool Pointer = false;
  /// Registration keys name what it points to (an allocation, a
  /// parameter's pointee): a registration of it changes those facts only.
  bool Keyed = false;
  /// '&x' of a tracked variable, or a tracked local bound to a non-const
  /// reference: a callee nothing is known of may store anything into it.
  bool Clobberable = false;

  bool operator==(const ArgumentShape &O) const {
    return Param == O.Param && Pointer == O.Pointer && Keyed == O.Keyed &&
           Clobberable == O.Clobberable;
  }
};

/// A call as the effects of its callee depend on it.
struct CallShape {
  /// Without a summary, the callee may do anything to what it is given (it
  /// is defined in another unit, or called through a pointer); otherwise
  /// it does nothing (a kernel, a function of the system headers).
  bool OpaqueWithoutSummary = false;
  std::vector<ArgumentShape> Args;

  /// "o1;0p,1pk,-c": no spaces, so that it fits in a question's text.
  std::string text() const;
  /// The inverse of text(); none for text it does not write.
  static std::optional<CallShape> parse(llvm::StringRef Text);
};

/// What a call does to one argument.
struct ArgumentEffect {
  /// Stored through it: the callee's out-parameter.
  std::optional<PointerValue> Stores;
  /// The registration of what it points to. No on an argument without
  /// keys undoes every registration (the memory cannot be named); Yes or
  /// Maybe on one without keys changes nothing and is left out.
  std::optional<Registration> Registers;
  /// Anything may be stored through it.
  bool Clobbers = false;

  bool none() const { return !Stores && !Registers && !Clobbers; }
};

/// The effect on argument \p Arg (of \p Shape) of a call of a function with
/// \p Summary (null: none), \p Opaque if it may then do anything.
ArgumentEffect argumentEffect(const FunctionSummary *Summary, bool Opaque,
                              const ArgumentShape &Arg);

/// Every effect of a call: on each argument, then the callee's registrations
/// as it returns (its summary's ExitRegistration and RegistersGlobal).
struct CallEffects {
  std::vector<ArgumentEffect> Args;
  const FunctionSummary *Exit = nullptr;
};
CallEffects callEffects(const FunctionSummary *Summary, const CallShape &Shape);

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_CALLEFFECTS_H
