//===- FlatSet.h - A small ordered set, shared until changed ----*- C++ -*-===//
//
// The sets of a dataflow state (the transfers in flight, those an event
// covers) hold a few elements and are copied at every block a state flows
// through, and at every edge; most copies are never changed (a copy issued
// again at its cap, a block that touches nothing). So the elements are
// kept sorted in one vector that copies share until one of them changes it
// (copy-on-write): a copy is a reference count, a change at most one
// allocation. The subset of std::set's interface the analyses use;
// iteration is in order, so states compare and print alike.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FLATSET_H
#define CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FLATSET_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

namespace cuda_async_lint {

template <typename T> class FlatSet {
  /// One analysis runs on one thread: a plain reference count.
  struct Storage : llvm::RefCountedBase<Storage> {
    std::vector<T> Elements;
  };
  static const std::vector<T> &none() {
    static const std::vector<T> None;
    return None;
  }
  const std::vector<T> &elements() const {
    return Shared ? Shared->Elements : none();
  }
  /// The elements, this set's own to change.
  std::vector<T> &own() {
    if (!Shared) {
      Shared = llvm::makeIntrusiveRefCnt<Storage>();
    } else if (Shared->UseCount() > 1) {
      auto Copy = llvm::makeIntrusiveRefCnt<Storage>();
      Copy->Elements = Shared->Elements;
      Shared = std::move(Copy);
    }
    return Shared->Elements;
  }

public:
  using value_type = T;
  using iterator = typename std::vector<T>::const_iterator;
  using const_iterator = iterator;

  FlatSet() = default;
  FlatSet(std::initializer_list<T> Init) {
    for (const T &E : Init)
      insert(E);
  }

  iterator begin() const { return elements().begin(); }
  iterator end() const { return elements().end(); }
  size_t size() const { return elements().size(); }
  bool empty() const { return elements().empty(); }
  void clear() { Shared.reset(); }

  iterator find(const T &E) const {
    auto It = std::lower_bound(begin(), end(), E);
    return It != end() && !(E < *It) ? It : end();
  }
  size_t count(const T &E) const { return find(E) != end(); }

  std::pair<iterator, bool> insert(T E) {
    auto Found = std::lower_bound(begin(), end(), E);
    if (Found != end() && !(E < *Found))
      return {Found, false};
    size_t At = Found - begin();
    std::vector<T> &Mine = own();
    return {Mine.insert(Mine.begin() + At, std::move(E)), true};
  }
  template <typename It> void insert(It First, It Last) {
    for (; First != Last; ++First)
      insert(*First);
  }

  iterator erase(iterator It) {
    size_t At = It - begin();
    std::vector<T> &Mine = own();
    return Mine.erase(Mine.begin() + At);
  }
  size_t erase(const T &E) {
    iterator It = find(E);
    if (It == end())
      return 0;
    erase(It);
    return 1;
  }

  bool operator==(const FlatSet &O) const {
    return Shared == O.Shared || elements() == O.elements();
  }
  bool operator!=(const FlatSet &O) const { return !(*this == O); }
  bool operator<(const FlatSet &O) const { return elements() < O.elements(); }

private:
  llvm::IntrusiveRefCntPtr<Storage> Shared;
};

} // namespace cuda_async_lint

#endif // CUDA_ASYNC_LINT_ANALYSIS_DATAFLOW_FLATSET_H
