//===- KernelWork.cpp - Kernels and device memory as work in flight -------===//
//
// The pending-transfer dataflow's part for kernels (KernelWrites.h): what a
// launch leaves in flight, the device memory two streams' work races on,
// and how the legacy default stream orders the blocking streams' work.
//
//===----------------------------------------------------------------------===//

#include "SlotRings.h"
#include "TransferDataflow.h"
#include "analysis/code/KernelWrites.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/GpuLibrary.h"
#include "api/HostCommunication.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint::pending {

bool isLibraryWork(const Stmt *S) {
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || !Call->getDirectCallee())
    return false;
  const ASTContext &Ctx = Call->getDirectCallee()->getASTContext();
  return libraryWorkHandle(Call, Ctx) || libraryWorkStream(Call, Ctx);
}

DeviceMemoryScope deviceMemoryScope(const FunctionDecl *FD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::set<StreamRef> Streams;
    DeviceMemoryScope Scope;
    bool VisitCallExpr(CallExpr *Call) {
      if (std::optional<AsyncOperation> Op = asyncOperation(Call)) {
        StreamRef S = streamRef(writtenStream(*Op));
        if (S.K == StreamRef::Kind::ArrayElement)
          Scope.SeveralStreams = true;
        else if (S.K != StreamRef::Kind::Unknown)
          Streams.insert(S);
      }
      Scope.SeveralStreams |= Streams.size() > 1;
      Scope.Communicates |= lookupHostCommunication(Call) != nullptr;
      return !(Scope.SeveralStreams && Scope.Communicates);
    }
  } F;
  F.TraverseStmt(FD->getBody());
  return F.Scope;
}

void TransferDataflow::orderAroundLegacyStream(const CallExpr *Call,
                                               Disjunct &D) const {
  std::optional<AsyncOperation> Op = asyncOperation(Call);
  if (!Op)
    return;
  StreamRef S = stream(writtenStream(*Op));
  StreamRef Legacy = StreamRef::legacy();
  if (S.K == StreamRef::Kind::Legacy) {
    TransferSet &Ordered = D.StreamWaits[Legacy];
    for (const PendingTransfer &P : D.Pending)
      if (waitsFor(Legacy, P))
        Ordered.insert(P);
    return;
  }
  bool Blocking =
      (S.K == StreamRef::Kind::Named || S.K == StreamRef::Kind::ArrayElement) &&
      !NonBlocking.count(S.Decl);
  if (!Blocking)
    return;
  auto Joined = D.StreamWaits.find(Legacy);
  TransferSet Before;
  for (const PendingTransfer &P : D.Pending)
    if (P.Stream.K == StreamRef::Kind::Legacy ||
        (Joined != D.StreamWaits.end() && Joined->second.count(P)))
      Before.insert(P);
  if (Before.empty())
    return;
  TransferSet &Ordered = D.StreamWaits[S];
  for (const PendingTransfer &P : Before)
    Ordered.insert(P);
}

namespace {

/// Whether \p Op is an async copy given \p Arg, the buffer whole ('d',
/// 'd_u1[i]', 'p->buf'; not 'd + off' nor '&d[i]'): it touches every part a
/// kernel may.
bool copiesWhole(const CallExpr *Op, const Expr *Arg) {
  if (!Op || !Arg || isa<CUDAKernelCallExpr>(Op))
    return false;
  const Expr *E = Arg->IgnoreParenCasts();
  return isa<DeclRefExpr, MemberExpr>(E) ||
         (isa<ArraySubscriptExpr>(E) && E->getType()->isPointerType());
}

} // namespace

void TransferDataflow::deviceAccess(
    const CallExpr *Op, const Expr *Arg, const BufferRef &Buffer, bool Writes,
    const StreamRef &S, Disjunct &D,
    std::vector<TransferHazard> *Hazards) const {
  auto Ordered = D.StreamWaits.find(S);
  for (auto It = D.Pending.begin(); It != D.Pending.end(); ++It) {
    const PendingTransfer &P = *It;
    // Kernels split a buffer between them by the ranges they are given
    // (a halo and a body kernel on two streams): only a copy of the whole
    // buffer is sure to touch what the other side does.
    if (!P.Op || P.CallerDecides || !(P.DeviceWrites || Writes) || P.Op == Op ||
        !(copiesWhole(Op, Arg) || copiesWhole(P.Op, P.HostArg)) ||
        !touchesInFlight(Buffer, /*Whole=*/false, P.Buffer))
      continue;
    // Ordered before the new work: the same stream, the legacy stream's
    // order, or an event the stream waited for.
    if (waitsFor(S, P) ||
        (Ordered != D.StreamWaits.end() && Ordered->second.count(P)))
      continue;
    if (Hazards)
      Hazards->push_back(
          {HostAccess{Op, Buffer, Writes ? AccessKind::Write : AccessKind::Read,
                      Arg},
           P});
    return; // One race for each access.
  }
}

void TransferDataflow::issueDeviceSides(
    const CallExpr *Call, const ApiSpec &Api, const Expr *StreamArg,
    const StreamRef &Stream, Disjunct &D,
    std::vector<TransferHazard> *Hazards) const {
  for (ArgRole Role : {ArgRole::Src, ArgRole::Dst}) {
    const Expr *Arg = Api.arg(Call, Role);
    if (!Arg || !Arg->getType()->isPointerType() ||
        !Provenance.pointerAt(Call, Arg).is(MemoryKind::Device))
      continue;
    std::optional<BufferRef> Buffer = Accesses.bufferOf(Arg);
    if (!Buffer || !Buffer->Base)
      continue;
    bool Writes = Role == ArgRole::Dst;
    deviceAccess(Call, Arg, *Buffer, Writes, Stream, D, Hazards);
    PendingTransfer Issued{Call, std::move(*Buffer), Stream, StreamArg, Writes,
                           Arg};
    Issued.DeviceMemory = true;
    uncoverReissued(D, Issued);
    addPending(D.Pending, std::move(Issued));
  }
}

void TransferDataflow::issueKernel(const CUDAKernelCallExpr *Launch,
                                   Disjunct &D,
                                   std::vector<TransferHazard> *Hazards) const {
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  std::optional<AsyncOperation> Op = asyncOperation(Launch);
  if (!Kernel || !Op)
    return;
  const Expr *StreamArg = writtenStream(*Op);
  StreamRef Stream = stream(StreamArg);
  for (unsigned I = 0; I < Launch->getNumArgs() && I < Kernel->getNumParams();
       ++I) {
    const Expr *Arg = Launch->getArg(I);
    QualType Param = Kernel->getParamDecl(I)->getType();
    if (!Param->isPointerType())
      continue;
    // A volatile or atomic flag is how a kernel and the host talk while it
    // runs (a latch the host releases, a progress counter): no race.
    QualType Pointee = Param->getPointeeType();
    if (Pointee.isVolatileQualified() || Pointee->isAtomicType() ||
        Pointee.getAsString().find("atomic") != std::string::npos)
      continue;
    // The address of one member of an object ('&h->done'): the host may
    // touch its other members; which part is which is not followed.
    if (const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
        Address && Address->getOpcode() == UO_AddrOf &&
        isa<MemberExpr>(Address->getSubExpr()->IgnoreParens()))
      continue;
    HostProvenance P = Provenance.pointerAt(Launch, Arg);
    bool Device = P.is(MemoryKind::Device);
    // A pointer parameter whose memory is not known here: the callers know.
    const auto *Named = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
    bool CallerDecides = !P.Kind && Named && isa<ParmVarDecl>(Named->getDecl());
    if (!(P.is(MemoryKind::Managed) || P.is(MemoryKind::Pinned) ||
          P.is(MemoryKind::Registered) || CallerDecides ||
          (Device && (Scope.Communicates || Scope.SeveralStreams))))
      continue;
    // The kernel's body decides; without it, a parameter to non-const may
    // be written (precision first: on device memory, only a body that
    // writes counts).
    std::optional<PointeeUse> Use = pointeeUse(Kernel, I);
    bool Writes = Use ? *Use == PointeeUse::Write
                      : !Param->getPointeeType().isConstQualified() && !Device;
    if (Use && *Use == PointeeUse::None)
      continue;
    std::optional<BufferRef> Buffer = Accesses.bufferOf(Arg);
    if (!Buffer || !Buffer->Base)
      continue;
    if (Scope.SeveralStreams && !CallerDecides)
      deviceAccess(Launch, Arg, *Buffer, Writes, Stream, D, Hazards);
    PendingTransfer Issued{
        Launch, std::move(*Buffer), Stream, StreamArg, Writes, Arg};
    Issued.DeviceMemory = Device;
    Issued.CallerDecides = CallerDecides;
    uncoverReissued(D, Issued);
    addPending(D.Pending, std::move(Issued));
  }
}

} // namespace cuda_async_lint::pending
