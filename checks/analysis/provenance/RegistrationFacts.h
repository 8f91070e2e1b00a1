//===- RegistrationFacts.h - What cudaHostRegister covers -------*- C++ -*-===//
//
// Per allocation (or pointer parameter), whether cudaHostRegister covers it
// at a point of a function: the registration part of the provenance
// dataflow's state, and its join.
//
// Every allocation a function makes starts a "fresh" fact where it is made,
// so a function of N allocations has up to N facts at its end. The state is
// copied at every block, so those facts are kept as one bit per allocation
// site (the function's AllocationSites, shared by all its states); only
// facts that calls made are kept by key. A long function then copies N bits
// per block, not a map of N nodes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONFACTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONFACTS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <optional>
#include <vector>

namespace cuda_async_lint {

/// Whether an allocation is covered by cudaHostRegister at a point.
enum class Registration { No, Yes, Maybe };

struct RegistrationFact {
  Registration R = Registration::No;
  /// The cudaHostRegister call, when R is Yes.
  const clang::CallExpr *By = nullptr;
  /// No because the allocation was just made (on every path): nothing this
  /// function did unregistered it, so a registration elsewhere may still
  /// cover it, as for an allocation it knows nothing about.
  bool Fresh = false;

  /// The fact of an allocation just made.
  static RegistrationFact fresh() { return {Registration::No, nullptr, true}; }
  /// Where two paths meet; a missing fact counts as No.
  static RegistrationFact join(const RegistrationFact &A,
                               const RegistrationFact &B);

  bool operator==(const RegistrationFact &O) const {
    return R == O.R && By == O.By && Fresh == O.Fresh;
  }
};

/// The allocations one function makes (origin keys: the allocating
/// expressions), numbered in the order they were found.
class AllocationSites {
public:
  void insert(const void *Site);
  bool contains(const void *Site) const { return Numbers.count(Site); }
  std::optional<unsigned> number(const void *Site) const;
  const void *site(unsigned Number) const { return Sites[Number]; }
  unsigned size() const { return Sites.size(); }

private:
  std::vector<const void *> Sites;
  llvm::DenseMap<const void *, unsigned> Numbers;
};

/// Registration facts established by a function, keyed by an origin's
/// opaque value or by a pointer parameter (for the memory it points to).
/// A missing key means the function did not touch it.
class RegistrationFacts {
public:
  /// Facts of a function whose own allocations are \p Sites (null: none);
  /// they must outlive these facts.
  explicit RegistrationFacts(const AllocationSites *Sites = nullptr);

  /// The fact of \p Key, or null if there is none.
  const RegistrationFact *find(const void *Key) const;
  bool contains(const void *Key) const { return find(Key); }
  void set(const void *Key, const RegistrationFact &Fact);
  /// The allocation \p Key, one of this function's own, is as if not made
  /// on this path (it failed: a null result, a failed registration), so
  /// that where paths meet the others' fact stands. Other keys keep their
  /// facts.
  void unmake(const void *Key);
  /// Every fact registered Yes becomes Maybe: an unregistration of memory
  /// the analysis cannot name may have undone it.
  void yesToMaybe();
  /// The facts of \p Keys alone.
  RegistrationFacts only(const llvm::SmallPtrSetImpl<const void *> &Keys) const;
  /// Calls \p Visit with every fact, in key order.
  void forEach(llvm::function_ref<void(const void *, const RegistrationFact &)>
                   Visit) const;

  /// Joins \p Other in. An allocation of this function's own (each fact
  /// set where it is made) missing on a path was not made there yet, so
  /// the other path's fact stands (a loop that allocates and registers
  /// leaves its allocation registered); any other missing fact is No.
  void join(const RegistrationFacts &Other);

  bool operator==(const RegistrationFacts &O) const {
    return Keyed == O.Keyed && Fresh == O.Fresh;
  }

private:
  const AllocationSites *Sites;
  /// Every fact but the fresh ones of Sites.
  std::map<const void *, RegistrationFact> Keyed;
  /// Per site of Sites, by number: its fact is fresh.
  llvm::BitVector Fresh;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_PROVENANCE_REGISTRATIONFACTS_H
