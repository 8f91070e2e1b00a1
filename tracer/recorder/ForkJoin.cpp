//===- ForkJoin.cpp - Streams one iteration forks and joins back ----------===//

#include "ForkJoin.h"

namespace cuda_async_trace {

void StreamWaits::add(const StreamWait &W) {
  if (Waits.size() == MaxWaits)
    Waits.pop_front();
  Waits.push_back(W);
}

std::set<StreamKey> StreamWaits::joined(const std::set<StreamKey> &Streams,
                                        std::uint64_t Since) const {
  // Which stream waited for which within the span.
  std::set<std::pair<StreamKey, StreamKey>> WaitedFor;
  for (auto It = Waits.rbegin(); It != Waits.rend() && It->At > Since; ++It)
    if (It->Recorded > Since && !(It->Waiter == It->On))
      WaitedFor.insert({It->Waiter, It->On});
  // Union-find over the loop's streams, by waits both ways.
  std::map<StreamKey, StreamKey> Parent;
  for (StreamKey S : Streams)
    Parent[S] = S;
  auto Root = [&Parent](StreamKey S) {
    while (!(Parent[S] == S))
      S = Parent[S];
    return S;
  };
  for (const auto &[Waiter, On] : WaitedFor) {
    if (!Parent.count(Waiter) || !Parent.count(On) ||
        !WaitedFor.count({On, Waiter}))
      continue;
    StreamKey A = Root(Waiter), B = Root(On);
    if (A < B)
      Parent[B] = A;
    else if (B < A)
      Parent[A] = B;
  }
  std::set<StreamKey> Out;
  for (StreamKey S : Streams)
    Out.insert(Root(S));
  return Out;
}

} // namespace cuda_async_trace
