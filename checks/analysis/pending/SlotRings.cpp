//===- SlotRings.cpp - Rings of pinned buffers and of events --------------===//

#include "SlotRings.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace cuda_async_lint::pending {

namespace {

/// The number of slots of the ring \p Element's index names: N of
/// 'ev[v % N]', or the constant size of the array of 'ev[v]'.
unsigned ringSize(const Expr *Element, const RingIndex &Index,
                  const ASTContext &Ctx) {
  if (Index.Modulus)
    return Index.Modulus;
  const auto *ASE = cast<ArraySubscriptExpr>(Element->IgnoreParenImpCasts());
  const ConstantArrayType *Array = Ctx.getAsConstantArrayType(
      ASE->getBase()->IgnoreParenImpCasts()->getType());
  uint64_t Size = Array ? Array->getSize().getZExtValue() : 0;
  return Size >= 2 && Size <= 64 ? unsigned(Size) : 0;
}

} // namespace

std::optional<BufferRef> turnedSlot(const PendingTransfer &P, const Stmt *St,
                                    const VarDecl *Written,
                                    const ASTContext &Ctx) {
  const BufferRef &B = P.Buffer;
  if (!P.HostArg || !B.Stale.empty() || B.Deps.size() != 1 ||
      !B.Deps.count(Written))
    return std::nullopt;
  std::optional<RingIndex> Index = ringIndexOf(P.HostArg, Ctx);
  if (!Index || Index->Var != Written)
    return std::nullopt;
  std::optional<RingMove> Move = ringMove(St, *Index, Ctx);
  if (!Move || (B.RingSize && B.RingSize != Move->Size))
    return std::nullopt;
  BufferRef Turned = B;
  Turned.RingTurns = (B.RingTurns + Move->Step) % Move->Size;
  // A whole turn on: the slot the index names again.
  Turned.RingSize = Turned.RingTurns ? Move->Size : 0;
  return Turned;
}

void turnEventRings(Disjunct &D, const Stmt *St, const VarDecl *Written,
                    const ASTContext &Ctx) {
  for (auto It = D.EventRings.begin(); It != D.EventRings.end();) {
    EventRing &Ring = It->second;
    if (Ring.Index.Var != Written) {
      ++It;
      continue;
    }
    std::optional<RingMove> Move = ringMove(St, Ring.Index, Ctx);
    if (!Move || Move->Size != Ring.Records.size()) {
      It = D.EventRings.erase(It);
      continue;
    }
    // The slot recorded k moves ago is k + Step moves behind now.
    std::vector<TransferSet> Turned(Move->Size);
    for (unsigned K = 0; K < Move->Size; ++K)
      Turned[(K + Move->Step) % Move->Size] = std::move(Ring.Records[K]);
    Ring.Records = std::move(Turned);
    ++It;
  }
}

void recordEventRing(Disjunct &D, const StreamRef &Event, const Expr *Element,
                     const TransferSet &Covered, const ASTContext &Ctx) {
  std::optional<RingIndex> Index = ringIndexOf(Element, Ctx);
  unsigned Size = Index ? ringSize(Element, *Index, Ctx) : 0;
  if (!Size) {
    D.EventRings.erase(Event);
    return;
  }
  EventRing &Ring = D.EventRings[Event];
  if (!(Ring.Index == *Index) || Ring.Records.size() != Size)
    Ring = {*Index, std::vector<TransferSet>(Size, D.Pending)};
  Ring.Records[0] = Covered;
}

const TransferSet *eventRingCovers(const Disjunct &D, const StreamRef &Event,
                                   const Expr *Element, const ASTContext &Ctx) {
  auto It = D.EventRings.find(Event);
  if (It == D.EventRings.end() || !Element)
    return nullptr;
  std::optional<RingIndex> Index = ringIndexOf(Element, Ctx);
  if (!Index || !(*Index == It->second.Index))
    return nullptr;
  return &It->second.Records.front();
}

void uncoverReissued(Disjunct &D, const PendingTransfer &P) {
  for (auto &[Event, Ring] : D.EventRings)
    for (TransferSet &Record : Ring.Records)
      Record.erase(P);
}

void intersectEventRings(Disjunct &Into, const Disjunct &From) {
  for (auto It = Into.EventRings.begin(); It != Into.EventRings.end();) {
    auto Other = From.EventRings.find(It->first);
    if (Other == From.EventRings.end() ||
        !(Other->second.Index == It->second.Index) ||
        Other->second.Records.size() != It->second.Records.size()) {
      It = Into.EventRings.erase(It);
      continue;
    }
    // A transfer a path does not have in flight needs no cover on it.
    for (size_t K = 0; K < It->second.Records.size(); ++K) {
      const TransferSet &Mine = It->second.Records[K];
      const TransferSet &Theirs = Other->second.Records[K];
      TransferSet Both;
      auto CoveredOn = [](const PendingTransfer &P, const TransferSet &Record,
                          const TransferSet &InFlight) {
        return Record.count(P) || !InFlight.count(P);
      };
      for (const TransferSet *Side : {&Mine, &Theirs})
        for (const PendingTransfer &P : *Side)
          if (CoveredOn(P, Mine, Into.Pending) &&
              CoveredOn(P, Theirs, From.Pending))
            Both.insert(P);
      It->second.Records[K] = std::move(Both);
    }
    ++It;
  }
}

} // namespace cuda_async_lint::pending
