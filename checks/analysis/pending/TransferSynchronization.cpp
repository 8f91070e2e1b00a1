//===- TransferSynchronization.cpp - What a sync takes out of flight ------===//

#include "SlotRings.h"
#include "TransferDataflow.h"
#include "analysis/code/AccessPaths.h"
#include "analysis/code/ObjectReferences.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"

using namespace clang;

namespace cuda_async_lint::pending {

bool TransferDataflow::waitsFor(const StreamRef &S,
                                const PendingTransfer &P) const {
  using K = StreamRef::Kind;
  const StreamRef &T = P.Stream;
  if (S.K == K::Unknown || T.K == K::Unknown)
    return true;
  if (S.K == K::Legacy && PerThread) // 0 is the per-thread stream.
    return T.K == K::Legacy || T.K == K::PerThread;
  // The legacy default stream waits for every blocking stream.
  if (S.K == K::Legacy)
    return !NonBlocking.count(T.Decl) || T.K == K::Legacy;
  return T == S;
}

void TransferDataflow::syncStream(Disjunct &D, const StreamRef &S,
                                  const Expr *Written) const {
  auto Ordered = D.StreamWaits.find(S);
  eraseIf(D.Pending, [&](const PendingTransfer &P) {
    if (Written && P.StreamArg && alwaysOtherElement(Written, P.StreamArg, Ctx))
      return false;
    return waitsFor(S, P) ||
           (Ordered != D.StreamWaits.end() && Ordered->second.count(P));
  });
}

void TransferDataflow::syncBlocking(Disjunct &D) const {
  eraseIf(D.Pending, [&](const PendingTransfer &P) {
    return !P.Stream.Decl || !NonBlocking.count(P.Stream.Decl);
  });
}

void TransferDataflow::syncEvent(Disjunct &D, const StreamRef &Event,
                                 const Expr *Arg) const {
  auto It = D.EventCovers.find(Event);
  if (Event.K == StreamRef::Kind::Unknown || It == D.EventCovers.end()) {
    syncAll(D); // Recorded where the analysis cannot see: anything.
    return;
  }
  // A slot of a ring of events: its own last record.
  if (const TransferSet *Record = eventRingCovers(D, Event, Arg, Ctx)) {
    for (const PendingTransfer &P : *Record)
      D.Pending.erase(P);
    return;
  }
  // 'ev[i]' after 'i' moved on from the element last recorded: an earlier
  // element of the ring, recorded before what the last one covers was
  // issued. Those transfers stay in flight.
  if (auto Slot = D.EventSlots.find(Event);
      Slot != D.EventSlots.end() && namesMovedOnSlot(Slot->second, Arg, Ctx))
    return;
  for (const PendingTransfer &P : It->second)
    D.Pending.erase(P);
}

void TransferDataflow::synchronize(const CallExpr *Call, Disjunct &D) const {
  const ApiSpec *Api = lookupApi(Call);
  if (!Api) {
    // Syncs only end transfers: with none in flight, what the callee
    // synchronizes cannot matter, and is not asked.
    if (D.Pending.empty())
      return;
    // A library algorithm that synchronizes the stream its policy names
    // (Thrust's 'par.on(s)').
    if (const Expr *Waited = libraryWaitStream(Call))
      syncStream(D, stream(Waited), Waited);
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD) {
      // Called through a pointer: it may synchronize the streams and
      // events it is given. Precision first: assume it does, as for a
      // function of another unit nothing is known of (callSyncs). A
      // helper given only the buffer is a host access (document 000's
      // refill race: prepareBatch(h_pinned, i)).
      for (const Expr *Arg : Call->arguments()) {
        if (isStreamType(Arg->getType()))
          syncStream(D, stream(Arg));
        else if (isEventType(Arg->getType()))
          syncEvent(D, Arg);
      }
      return;
    }
    const SyncSummary *Summary = nullptr;
    CallSyncs Effect = Syncs.callSyncs(Call, FD, Summary);
    if (Effect.Device)
      syncAll(D);
    for (unsigned I : Effect.Streams)
      syncStream(D, stream(Call->getArg(I)));
    for (unsigned I : Effect.Events)
      syncEvent(D, Call->getArg(I));
    // Stream members are named by their declaration, whatever the object
    // (StreamRef): syncing one object's covers the others' too, which
    // only costs findings.
    if (Summary && isa<CXXMemberCallExpr>(Call)) {
      for (const FieldDecl *Member : Summary->StreamMembers)
        syncStream(D, {StreamRef::Kind::Named, Member});
      for (const FieldDecl *Member : Summary->EventMembers)
        syncEvent(D, {StreamRef::Kind::Named, Member}, nullptr);
    }
    return;
  }
  switch (Api->Kind) {
  case ApiKind::StreamSync: {
    const Expr *Stream = Api->arg(Call, ArgRole::Stream);
    syncStream(D, stream(Stream), Stream);
    break;
  }
  case ApiKind::DeviceSync:
    syncAll(D);
    break;
  case ApiKind::EventSync:
    syncEvent(D, Api->arg(Call, ArgRole::Event));
    break;
  case ApiKind::EventRecord: {
    StreamRef Event = stream(Api->arg(Call, ArgRole::Event));
    StreamRef Stream = stream(Api->arg(Call, ArgRole::Stream));
    if (Event.K == StreamRef::Kind::Unknown)
      break;
    // An event recorded on the legacy stream completes once every
    // blocking stream's earlier work has.
    // So does one recorded on a stream that waited for an event covering
    // them ('cudaStreamWaitEvent(compute, reset); ...; record(done,
    // compute)': done covers what reset did).
    auto Ordered = D.StreamWaits.find(Stream);
    TransferSet Covered;
    for (const PendingTransfer &P : D.Pending)
      if (P.Stream == Stream ||
          (Stream.K == StreamRef::Kind::Legacy && waitsFor(Stream, P)) ||
          (Ordered != D.StreamWaits.end() && Ordered->second.count(P)))
        Covered.insert(P);
    recordEventRing(D, Event, Api->arg(Call, ArgRole::Event), Covered, Ctx);
    D.EventCovers[Event] = std::move(Covered);
    if (std::set<const VarDecl *> Index =
            elementIndexVariables(Api->arg(Call, ArgRole::Event));
        Event.K == StreamRef::Kind::ArrayElement && !Index.empty())
      D.EventSlots[Event] = {
          elementIndex(Api->arg(Call, ArgRole::Event)), std::move(Index), {}};
    else
      D.EventSlots.erase(Event);
    break;
  }
  case ApiKind::StreamWaitEvent: {
    // The stream's later work starts after what the event covers; an event
    // recorded where the analysis cannot see (or, on some path, not at all)
    // may cover anything, as for a sync of it.
    StreamRef Stream = stream(Api->arg(Call, ArgRole::Stream));
    if (Stream.K == StreamRef::Kind::Unknown)
      break;
    StreamRef Event = stream(Api->arg(Call, ArgRole::Event));
    auto It = D.EventCovers.find(Event);
    bool Known =
        Event.K != StreamRef::Kind::Unknown && It != D.EventCovers.end();
    TransferSet &Ordered = D.StreamWaits[Stream];
    for (const PendingTransfer &P : Known ? It->second : D.Pending)
      if (D.Pending.count(P))
        Ordered.insert(P);
    break;
  }
  case ApiKind::Copy:
  case ApiKind::Memset:
    // "For transfers from device memory to device memory, no host-side
    // synchronization is performed."
    if (Api->Mode == ApiMode::Blocking &&
        copyDirection(Call, *Api, Ctx) != CopyDirection::DeviceToDevice)
      syncBlocking(D);
    break;
  case ApiKind::Allocate:
    // A device or page-locked allocation issued between two streams' work
    // keeps them from running at once (the programming guide's implicit
    // synchronization): the device memory work in flight is ordered before
    // all later work. Precision first: what the host may touch stays.
    if (Api->Mode == ApiMode::Blocking)
      eraseIf(D.Pending,
              [](const PendingTransfer &P) { return P.DeviceMemory; });
    break;
  case ApiKind::Release:
    // cudaFree and cudaFreeHost synchronize the device first.
    if (Api->Mode == ApiMode::Blocking)
      syncAll(D);
    break;
  default:
    break;
  }
}

} // namespace cuda_async_lint::pending
