//===- BranchFacts.h - What a path learnt from its branches -----*- C++ -*-===//
//
// A path that took 'if (isAsync)' true and has not written isAsync since
// takes the next 'if (isAsync)' true as well; a path that entered
// 'for (i = 0; i < n; ++i)' knows n > 0 and enters the next 'for (j = 0;
// j < n; ++j)' too, while n is unchanged. Dataflow analyses keep these facts
// per path to drop the infeasible ones: a copy guarded by a condition and its
// synchronization guarded by the same condition, a loop that issues copies
// and a loop over the same bound that synchronizes them.
//
// Only conditions over stable variables count: locals and parameters (not
// references, not volatile) whose address the function never takes (but as
// an out-argument of the CUDA API, 'cudaGetDeviceCount(&n)') and no lambda
// captures by reference, read without calls, dereferences or members. Such
// a variable changes only by a statement the analysis sees.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BRANCHFACTS_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BRANCHFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include <optional>
#include <set>
#include <vector>

namespace cuda_async_lint {

/// One fact: a condition's value, or whether a loop bound is positive.
struct BranchFact {
  enum class Kind { Condition, PositiveBound };
  /// What every copy of a fact shares (a path's facts are copied into every
  /// state along it): the expression's structural identity, the variables
  /// it reads (writing one forgets the fact) and, for 'x == K' with a
  /// constant K, x's identity (so that 'x == K' and 'x == K2' cannot both
  /// hold).
  struct Identity : llvm::RefCountedBase<Identity> {
    llvm::FoldingSetNodeID Id;
    std::vector<const clang::VarDecl *> Reads;
    /// The members it reads ('p->count', 's.count'): any call or store to
    /// the field may change them (memberEffects).
    std::vector<const clang::FieldDecl *> Fields;
    llvm::FoldingSetNodeID Subject;
  };
  Kind K;
  /// Shared by the copies of one analysis's states, all on one thread.
  llvm::IntrusiveRefCntPtr<const Identity> Of;
  bool Value;
  /// K, for 'x == K'.
  std::optional<int64_t> Constant;

  const llvm::FoldingSetNodeID &id() const { return Of->Id; }
  const llvm::FoldingSetNodeID &subject() const { return Of->Subject; }
  const std::vector<const clang::VarDecl *> &reads() const { return Of->Reads; }
  const std::vector<const clang::FieldDecl *> &fields() const {
    return Of->Fields;
  }
  bool sameExpression(const BranchFact &O) const {
    return K == O.K && (Of == O.Of || id() == O.id());
  }
  bool operator==(const BranchFact &O) const {
    return sameExpression(O) && Value == O.Value;
  }
  bool operator<(const BranchFact &O) const {
    if (K != O.K)
      return K < O.K;
    if (Of != O.Of && id() != O.id())
      return id() < O.id();
    return Value < O.Value;
  }
};

/// The facts of one path, sorted.
using BranchFactSet = std::vector<BranchFact>;

/// Learns facts from branch edges and forgets them when their variables are
/// written, for one function.
class BranchFacts {
public:
  BranchFacts(const clang::FunctionDecl *FD, clang::ASTContext &Ctx);

  /// Taking the edge of \p Cond whose value is \p Outcome. \p IsZero says
  /// which loop counters are known to be 0 on this path. Returns false if
  /// the facts make the edge infeasible; otherwise adds what it teaches.
  template <typename ZeroFn>
  bool takeEdge(const clang::Expr *Cond, bool Outcome, BranchFactSet &Facts,
                ZeroFn IsZero) const {
    if (std::optional<BranchFact> F = conditionFact(Cond, Outcome))
      if (!add(std::move(*F), Facts))
        return false;
    // 'i < n' with i known 0 is 'n > 0'.
    const clang::VarDecl *Counter = nullptr;
    if (std::optional<BranchFact> F = boundFact(Cond, Outcome, Counter))
      if (IsZero(Counter) && !add(std::move(*F), Facts))
        return false;
    return true;
  }

  /// Taking the edge of \p Switch to \p Succ: its case says 'x == K'; its
  /// default (or no case) says x is none of the cases. Returns false if the
  /// facts make the edge infeasible.
  bool takeSwitchEdge(const clang::SwitchStmt *Switch,
                      const clang::Stmt *SuccLabel, BranchFactSet &Facts) const;

  /// True if \p VD is a stable variable of the function: a scalar local or
  /// parameter that only the statements the analysis sees may change.
  bool isStable(const clang::VarDecl *VD) const;

  /// Forgets the facts that read \p VD.
  static void written(const clang::VarDecl *VD, BranchFactSet &Facts);
  /// Forgets the facts that read a variable the CUDA API call \p S writes
  /// through an '&x' argument ('cudaGetDeviceCount(&n)').
  static void writtenByApiCall(const clang::Stmt *S, BranchFactSet &Facts);
  /// Forgets the facts that read a member \p S may write: a store to its
  /// field, a store of a whole object, any call but one of the CUDA API
  /// that is given no pointer to an object.
  static void memberEffects(const clang::Stmt *S, BranchFactSet &Facts);

  /// Keeps only the facts both sets hold (a join of two paths).
  static void intersect(BranchFactSet &Into, const BranchFactSet &From);

private:
  std::optional<BranchFact> conditionFact(const clang::Expr *Cond,
                                          bool Outcome) const;
  /// The fact 'Subject == Value' is \p Outcome.
  std::optional<BranchFact> equalityFact(const clang::Expr *Subject,
                                         const clang::Expr *Value,
                                         bool Outcome) const;
  std::optional<BranchFact> boundFact(const clang::Expr *Cond, bool Outcome,
                                      const clang::VarDecl *&Counter) const;
  /// The stable variables \p E reads, and the members of them ('p->n',
  /// 's.n': a scalar field of what a stable pointer points to, or of a
  /// local object whose address is not taken), or false if it reads
  /// anything else.
  bool stableReads(const clang::Expr *E, BranchFact::Identity &Of) const;
  static bool add(BranchFact F, BranchFactSet &Facts);
  /// The most facts a path keeps, and the most 'x != K' for one x.
  static constexpr size_t MaxFacts = 16;
  static constexpr unsigned MaxNegations = 2;

  clang::ASTContext &Ctx;
  /// Locals and parameters whose address is taken or that a lambda
  /// captures by reference: they may change behind the analysis's back.
  std::set<const clang::VarDecl *> Escaping;
  /// Fields whose address is taken, or that a reference binds.
  std::set<const clang::FieldDecl *> AddressedFields;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_BRANCHFACTS_H
