//===- ForwardDataflow.h - A worklist solver over clang's CFG ---*- C++ -*-===//
//
// The shape of clang's UninitializedValues.cpp: a state per block, the join
// of the predecessors' out-states as in-state, a transfer over the block's
// elements, and a worklist in reverse post-order until nothing changes. Loops
// are iterated to a true fixpoint, so loop-carried facts reach the loop head.
//
// An Analysis provides:
//   using State = ...;                    // copyable, operator==
//   State entryState() const;
//   void join(State &Into, const State &From) const;
//   void transfer(const clang::CFGElement &E, State &S) const;
//   // What taking edge SuccIndex out of From teaches (a branch condition);
//   // false if no path of S can take it:
//   bool transferEdge(const clang::CFGBlock &From, unsigned SuccIndex,
//                     State &S) const;
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FORWARDDATAFLOW_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FORWARDDATAFLOW_H

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <set>
#include <vector>

namespace cuda_async_lint {

/// The condition a two-way branch at the end of \p B tests, without
/// parentheses and implicit casts; successor 0 is its true edge, 1 its false
/// edge. Null for other blocks: a switch with one case and a default has two
/// successors too, but they are no true and false edge.
inline const clang::Expr *branchCondition(const clang::CFGBlock &B) {
  const auto *Cond = llvm::dyn_cast_or_null<clang::Expr>(
      B.getTerminatorCondition(/*StripParens=*/true));
  if (!Cond || B.succ_size() != 2 ||
      llvm::isa_and_nonnull<clang::SwitchStmt>(B.getTerminatorStmt()))
    return nullptr;
  return Cond->IgnoreParenImpCasts();
}

/// The reverse post-order index of every block reachable from the entry,
/// so a worklist visits a block after its forward predecessors. Edges the
/// CFG marks unreachable (null successors, as after 'while (0)') are skipped.
inline std::vector<unsigned> reversePostOrder(const clang::CFG &Cfg) {
  const unsigned N = Cfg.getNumBlockIDs();
  std::vector<unsigned> PostIndex(N, ~0u);
  std::vector<bool> Seen(N, false);
  unsigned Next = 0;
  // Iterative DFS: (block, index of the next successor to visit).
  std::vector<std::pair<const clang::CFGBlock *, unsigned>> Stack;
  Stack.push_back({&Cfg.getEntry(), 0});
  Seen[Cfg.getEntry().getBlockID()] = true;
  while (!Stack.empty()) {
    auto &[B, SuccIndex] = Stack.back();
    if (SuccIndex < B->succ_size()) {
      const clang::CFGBlock *Succ = B->succ_begin()[SuccIndex++];
      if (Succ && !Seen[Succ->getBlockID()]) {
        Seen[Succ->getBlockID()] = true;
        Stack.push_back({Succ, 0});
      }
      continue;
    }
    PostIndex[B->getBlockID()] = Next++;
    Stack.pop_back();
  }
  std::vector<unsigned> Order(N, ~0u);
  for (unsigned I = 0; I < N; ++I)
    if (PostIndex[I] != ~0u)
      Order[I] = Next - 1 - PostIndex[I];
  return Order;
}

/// The in-state of every block, indexed by block ID; std::nullopt for blocks
/// no path from the entry reaches. A monotone analysis over a finite lattice
/// converges well within the visit budget; if an analysis ever exceeds it,
/// every block is std::nullopt: the function yields no facts, and checks stay
/// silent on it.
template <typename Analysis>
std::vector<std::optional<typename Analysis::State>>
solveForward(const clang::CFG &Cfg, const Analysis &A) {
  using State = typename Analysis::State;
  const unsigned N = Cfg.getNumBlockIDs();

  std::vector<unsigned> Order = reversePostOrder(Cfg);

  // Which successor indices of a predecessor lead to a block, found once:
  // asking the predecessor's successors at each visit is quadratic in a
  // switch of N cases (one predecessor, N successors, N blocks).
  llvm::DenseMap<std::pair<unsigned, unsigned>, llvm::SmallVector<unsigned, 1>>
      EdgeIndices;
  for (const clang::CFGBlock *From : Cfg) {
    unsigned Index = 0;
    for (const clang::CFGBlock::AdjacentBlock &Succ : From->succs()) {
      unsigned SuccIndex = Index++;
      if (const clang::CFGBlock *To = Succ.getReachableBlock())
        EdgeIndices[{From->getBlockID(), To->getBlockID()}].push_back(
            SuccIndex);
    }
  }

  // Loop heads: blocks a back edge (from a block no earlier in the order)
  // reaches. A join that bounds its state (too many disjuncts merge into
  // one) is not monotone: a loop head's state could then alternate between
  // the bounded and the precise form and never settle. Its in-state
  // therefore only grows: each visit joins the last one's.
  std::vector<bool> LoopHead(N, false);
  for (const clang::CFGBlock *B : Cfg)
    for (const clang::CFGBlock::AdjacentBlock &P : B->preds())
      if (const clang::CFGBlock *Pred = P.getReachableBlock())
        if (Order[Pred->getBlockID()] >= Order[B->getBlockID()])
          LoopHead[B->getBlockID()] = true;

  std::vector<std::optional<State>> In(N), Out(N);
  std::set<std::pair<unsigned, const clang::CFGBlock *>> Worklist;
  const clang::CFGBlock &Entry = Cfg.getEntry();
  Worklist.insert({Order[Entry.getBlockID()], &Entry});

  const size_t VisitBudget = 64 * size_t(N) + 1024;
  size_t Visits = 0;
  while (!Worklist.empty()) {
    if (++Visits > VisitBudget)
      return std::vector<std::optional<State>>(N);
    const clang::CFGBlock *B = Worklist.begin()->second;
    Worklist.erase(Worklist.begin());

    std::optional<State> BlockIn;
    if (B == &Entry)
      BlockIn = A.entryState();
    for (const clang::CFGBlock::AdjacentBlock &P : B->preds()) {
      const clang::CFGBlock *Pred = P.getReachableBlock();
      if (!Pred || !Out[Pred->getBlockID()])
        continue;
      // Each edge from Pred to B, refined by what taking it means.
      for (unsigned SuccIndex :
           EdgeIndices.lookup({Pred->getBlockID(), B->getBlockID()})) {
        State Edge = *Out[Pred->getBlockID()];
        if (!A.transferEdge(*Pred, SuccIndex, Edge))
          continue; // No path takes this edge.
        if (!BlockIn)
          BlockIn = std::move(Edge);
        else
          A.join(*BlockIn, Edge);
      }
    }
    if (!BlockIn)
      continue;
    // The same in-state as at the last visit gives the same out-state.
    std::optional<State> &LastIn = In[B->getBlockID()];
    if (LastIn && LoopHead[B->getBlockID()])
      A.join(*BlockIn, *LastIn);
    if (LastIn && *LastIn == *BlockIn)
      continue;

    State S = *BlockIn;
    for (const clang::CFGElement &E : *B)
      A.transfer(E, S);
    LastIn = std::move(BlockIn);
    std::optional<State> &BlockOut = Out[B->getBlockID()];
    if (BlockOut && *BlockOut == S)
      continue;
    BlockOut = std::move(S);
    for (const clang::CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const clang::CFGBlock *SB = Succ.getReachableBlock())
        Worklist.insert({Order[SB->getBlockID()], SB});
  }
  return In;
}

/// The reporting pass of an analysis with a
///   void replay(const clang::CFGElement &E, State &S, Result &R) const;
/// that does what transfer() does and records into \p R: each block no path
/// reaches is skipped, each other replayed once from its fixpoint in-state.
/// Returns the in-states, as solveForward does.
template <typename Analysis, typename Result>
std::vector<std::optional<typename Analysis::State>>
solveAndReplay(const clang::CFG &Cfg, const Analysis &A, Result &R) {
  std::vector<std::optional<typename Analysis::State>> In =
      solveForward(Cfg, A);
  for (const clang::CFGBlock *B : Cfg) {
    const std::optional<typename Analysis::State> &BlockIn =
        In[B->getBlockID()];
    if (!BlockIn)
      continue;
    typename Analysis::State S = *BlockIn;
    for (const clang::CFGElement &E : *B)
      A.replay(E, S, R);
  }
  return In;
}

/// Whether block \p B ends in a throw or a call that does not return
/// (abort(), exit()): its edge to the exit is no return to the caller.
inline bool leavesAbnormally(const clang::CFGBlock &B) {
  for (auto It = B.rbegin(); It != B.rend(); ++It)
    if (std::optional<clang::CFGStmt> S = It->getAs<clang::CFGStmt>()) {
      if (llvm::isa<clang::CXXThrowExpr>(S->getStmt()))
        return true;
      const auto *Call = llvm::dyn_cast<clang::CallExpr>(S->getStmt());
      const clang::FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
      return FD && FD->isNoReturn();
    }
  return false;
}

/// The state in which the function returns to its caller: the join of the
/// exit's predecessors' out-states (from the in-states \p In of
/// solveForward), less those that leave by an exception or a call that does
/// not return (a failed check aborts; its caller does not go on).
template <typename Analysis>
std::optional<typename Analysis::State>
returnState(const clang::CFG &Cfg, const Analysis &A,
            const std::vector<std::optional<typename Analysis::State>> &In) {
  std::optional<typename Analysis::State> Exit;
  for (const clang::CFGBlock::AdjacentBlock &Pred : Cfg.getExit().preds()) {
    const clang::CFGBlock *P = Pred.getReachableBlock();
    if (!P || !In[P->getBlockID()] || leavesAbnormally(*P))
      continue;
    typename Analysis::State S = *In[P->getBlockID()];
    for (const clang::CFGElement &E : *P)
      A.transfer(E, S);
    if (!Exit)
      Exit = std::move(S);
    else
      A.join(*Exit, S);
  }
  return Exit;
}

/// The must-join of facts kept per key as one value (a handle's stream, the
/// element of an array of events recorded last): a key survives only where
/// both paths have it with the same value.
template <typename Map> void intersectEqualMaps(Map &Into, const Map &From) {
  for (auto It = Into.begin(); It != Into.end();) {
    auto Other = From.find(It->first);
    bool Same = Other != From.end() && Other->second == It->second;
    It = Same ? std::next(It) : Into.erase(It);
  }
}

/// The must-join of facts kept per key as sets (per event: the operations
/// it covers): a key survives only where both paths have it, with the
/// elements both have.
template <typename Map> void intersectSetMaps(Map &Into, const Map &From) {
  for (auto It = Into.begin(); It != Into.end();) {
    auto Other = From.find(It->first);
    if (Other == From.end()) {
      It = Into.erase(It);
      continue;
    }
    for (auto E = It->second.begin(); E != It->second.end();)
      E = Other->second.count(*E) ? std::next(E) : It->second.erase(E);
    ++It;
  }
}

/// The CFG the analyses run on: every statement an element, so calls
/// nested in expressions are seen in evaluation order; with \p Lifetimes,
/// the ends of local variables' lifetimes too.
inline std::unique_ptr<clang::CFG>
buildAnalysisCFG(const clang::FunctionDecl *FD, clang::ASTContext &Ctx,
                 bool Lifetimes = false) {
  clang::CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddLifetime = Lifetimes;
  Options.AddScopes = false;
  return clang::CFG::buildCFG(FD, FD->getBody(), &Ctx, Options);
}

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FORWARDDATAFLOW_H
