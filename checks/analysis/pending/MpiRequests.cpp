//===- MpiRequests.cpp - Nonblocking MPI calls as work in flight ----------===//
//
// A nonblocking MPI call (MPI_Isend, MPI_Irecv, MPI_Iallreduce, ...) goes on
// reading its send buffers and writing its receive buffers until a call that
// names its request completes it (MPI_Wait, MPI_Waitall, MPI_Test, ...; the
// 'req' role of HostCommunicationApis.def). Until then the buffers are in
// flight as a copy's are: on the request, not on a stream, so no CUDA wait
// completes them (a device or stream sync is still taken as one: that can
// only hide a race).
//
//===----------------------------------------------------------------------===//

#include "TransferDataflow.h"
#include "api/HostCommunication.h"

using namespace clang;

namespace cuda_async_lint::pending {

namespace {

/// The variable (or field) a request argument names: '&req', '&reqs[i]',
/// 'reqs + i', 'reqs'. Null where it is not named so.
const ValueDecl *requestDecl(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  while (true) {
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase()->IgnoreParenCasts();
    else if (const auto *B = dyn_cast<BinaryOperator>(E);
             B && B->isAdditiveOp())
      E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())
              ->IgnoreParenCasts();
    else
      break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

void completeRequest(Disjunct &D, const ValueDecl *Request) {
  eraseIf(D.Pending, [&](const PendingTransfer &P) {
    return P.Request && (!Request || P.Stream.Decl == Request);
  });
}

} // namespace

void TransferDataflow::mpiRequests(const CallExpr *Call, Disjunct &D) const {
  const HostCommunicationSpec *Spec = lookupHostCommunication(Call);
  if (!Spec) {
    // A function given a request in flight may complete it. Most calls
    // meet no request in flight: their arguments are not looked at.
    if (llvm::none_of(D.Pending,
                      [](const PendingTransfer &P) { return P.Request; }))
      return;
    for (const Expr *Arg : Call->arguments())
      if (const ValueDecl *Request = requestDecl(Arg))
        completeRequest(D, Request);
    return;
  }
  std::vector<const Expr *> Requests =
      hostCommunicationArgs(Call, *Spec, ArgRole::Request);
  if (Requests.empty())
    return;
  std::vector<const Expr *> Sent =
      hostCommunicationArgs(Call, *Spec, ArgRole::Src);
  std::vector<const Expr *> Received =
      hostCommunicationArgs(Call, *Spec, ArgRole::Dst);
  if (Sent.empty() && Received.empty()) {
    for (const Expr *Request : Requests)
      completeRequest(D, requestDecl(Request));
    return;
  }
  const ValueDecl *Request = requestDecl(Requests.front());
  if (!Request)
    return;
  for (bool Writes : {false, true})
    for (const Expr *Arg : Writes ? Received : Sent) {
      if (!Arg->getType()->isPointerType())
        continue;
      std::optional<BufferRef> Buffer = Accesses.bufferOf(Arg);
      if (!Buffer || !Buffer->Base)
        continue;
      PendingTransfer Issued{Call,
                             std::move(*Buffer),
                             {StreamRef::Kind::Named, Request},
                             Requests.front(),
                             Writes,
                             Arg};
      Issued.Request = true;
      addPending(D.Pending, std::move(Issued));
    }
}

void raceWithRequests(const CUDAKernelCallExpr *Launch, const Expr *Arg,
                      const BufferRef &Buffer, bool Writes, Disjunct &D,
                      std::vector<TransferHazard> *Hazards) {
  // Only where both name the whole buffer: a kernel given a field while a
  // receive fills its halo rows ('a + iy_end * nx') may work on the rows
  // between, which the analysis does not tell apart.
  if (!namesWholeBuffer(Arg))
    return;
  for (const PendingTransfer &P : D.Pending) {
    if (!P.Request || !(P.DeviceWrites || Writes) ||
        !namesWholeBuffer(P.HostArg) ||
        !touchesInFlight(Buffer, /*Whole=*/false, P.Buffer))
      continue;
    if (Hazards)
      Hazards->push_back(
          {HostAccess{Launch, Buffer,
                      Writes ? AccessKind::Write : AccessKind::Read, Arg},
           P});
    return; // One race for each access.
  }
}

} // namespace cuda_async_lint::pending
