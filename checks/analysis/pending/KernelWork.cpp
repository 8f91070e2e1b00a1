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
#include "analysis/provenance/SwitchCorrelation.h"
#include "api/AsyncOperation.h"
#include "api/CudaApiCatalog.h"
#include "api/GpuLibrary.h"
#include "api/HostCommunication.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace cuda_async_lint::pending {

bool namesWholeBuffer(const Expr *Arg) {
  if (!Arg)
    return false;
  const Expr *E = Arg->IgnoreParenCasts();
  return isa<DeclRefExpr, MemberExpr>(E) ||
         (isa<ArraySubscriptExpr>(E) && E->getType()->isPointerType());
}

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
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        reassigned(B->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp())
        reassigned(U->getSubExpr());
      return true;
    }
    void reassigned(const Expr *E) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Scope.Reassigned.insert(VD);
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

/// Whether \p Op is an async copy given the whole buffer \p Arg: it
/// touches every part a kernel may.
bool copiesWhole(const CallExpr *Op, const Expr *Arg) {
  return Op && Arg && !isa<CUDAKernelCallExpr>(Op) && namesWholeBuffer(Arg);
}

/// The variables \p E names.
void namedVariables(const Stmt *S, std::set<const VarDecl *> &Out) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.insert(VD);
  for (const Stmt *Child : S->children())
    if (Child)
      namedVariables(Child, Out);
}

} // namespace

bool TransferDataflow::sameLaunch(const CallExpr *A, const CallExpr *B) const {
  const auto *LA = dyn_cast_or_null<CUDAKernelCallExpr>(A);
  const auto *LB = dyn_cast_or_null<CUDAKernelCallExpr>(B);
  if (!LA || !LB || !LA->getDirectCallee() || !LB->getDirectCallee() ||
      LA->getDirectCallee()->getCanonicalDecl() !=
          LB->getDirectCallee()->getCanonicalDecl() ||
      LA->getNumArgs() != LB->getNumArgs())
    return false;
  std::set<const VarDecl *> Named;
  for (unsigned I = 0; I < LA->getNumArgs(); ++I) {
    llvm::FoldingSetNodeID IdA, IdB;
    LA->getArg(I)->Profile(IdA, Ctx, /*Canonical=*/true);
    LB->getArg(I)->Profile(IdB, Ctx, /*Canonical=*/true);
    if (IdA != IdB)
      return false;
    namedVariables(LA->getArg(I), Named);
  }
  // The same text is the same values only where no variable it names is
  // assigned in the function ('off += n' between the launches).
  return llvm::none_of(Named, [&](const VarDecl *VD) {
    return Scope.Reassigned.count(VD) != 0;
  });
}

void TransferDataflow::deviceAccess(
    const CallExpr *Op, const Expr *Arg, const BufferRef &Buffer, bool Writes,
    const StreamRef &S, Disjunct &D,
    std::vector<TransferHazard> *Hazards) const {
  auto Ordered = D.StreamWaits.find(S);
  for (auto It = D.Pending.begin(); It != D.Pending.end(); ++It) {
    const PendingTransfer &P = *It;
    // Kernels split a buffer between them by the ranges they are given
    // (a halo and a body kernel on two streams): only a copy of the whole
    // buffer, or the same kernel given the same values, is sure to touch
    // what the other side does.
    if (!P.Op || P.CallerDecides || P.Request || !(P.DeviceWrites || Writes) ||
        P.Op == Op ||
        !(copiesWhole(Op, Arg) || copiesWhole(P.Op, P.HostArg) ||
          sameLaunch(Op, P.Op)) ||
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

namespace {

/// A flag a kernel and the host talk through while it runs (a latch the
/// host releases, a progress counter): volatile or atomic. No race.
bool isLatch(QualType Pointee) {
  return Pointee.isVolatileQualified() || Pointee->isAtomicType() ||
         Pointee.getAsString().find("atomic") != std::string::npos;
}

/// Pointer members of a kernel parameter's record are followed this deep
/// (nested by value) and this many.
constexpr unsigned MaxMemberDepth = 3;
constexpr unsigned MaxMemberPaths = 16;

/// The pointer members of \p RD, and those of records it holds by value:
/// each as the fields from \p RD to it.
void pointerMembers(const RecordDecl *RD, MemberPath &Prefix,
                    llvm::SmallVectorImpl<MemberPath> &Out) {
  if (!RD || !(RD = RD->getDefinition()) || Prefix.size() >= MaxMemberDepth)
    return;
  for (const FieldDecl *F : RD->fields()) {
    if (Out.size() >= MaxMemberPaths)
      return;
    QualType T = F->getType();
    Prefix.push_back(F);
    if (T->isPointerType() && !T->isFunctionPointerType() &&
        !isLatch(T->getPointeeType()))
      Out.push_back(Prefix);
    else if (T->isRecordType() && !T->isUnionType())
      pointerMembers(T->getAsRecordDecl(), Prefix, Out);
    Prefix.pop_back();
  }
}

/// The object a kernel argument of record type is copied from ('s' of the
/// copy construction a by-value parameter makes).
const Expr *copiedObject(const Expr *Arg) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  while (true) {
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && CE->getNumArgs() == 1 &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0)->IgnoreParenImpCasts();
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr()->IgnoreParenImpCasts();
    else
      return E;
  }
}

} // namespace

const Expr *TransferDataflow::memberPointer(const Expr *Arg, bool Arrow,
                                            MemberPath Path) const {
  auto Key = std::make_pair(Arg, Path);
  if (auto It = MemberPointers.find(Key); It != MemberPointers.end())
    return It->second;
  // What 'arg.a.b' or 'arg->a.b' would be, written out: the provenance and
  // the buffer of a member are read off such an expression. A lambda's
  // copy of a variable is the variable's value ('[=] { d[i] = 1; }').
  Expr *E = const_cast<Expr *>(Arrow ? Arg : copiedObject(Arg));
  if (const VarDecl *Captured = Path.size() == 1 && !Arrow
                                    ? capturedVariable(Path.front())
                                    : nullptr) {
    auto *Var = const_cast<VarDecl *>(Captured);
    E = DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                            Var, /*RefersToEnclosingVariableOrCapture=*/false,
                            SourceLocation(), Var->getType(), VK_LValue);
    Path = {};
  }
  for (const FieldDecl *F : Path) {
    E = MemberExpr::CreateImplicit(Ctx, E, Arrow, const_cast<FieldDecl *>(F),
                                   F->getType(), VK_LValue, OK_Ordinary);
    Arrow = false;
  }
  E = ImplicitCastExpr::Create(Ctx, E->getType(), CK_LValueToRValue, E, nullptr,
                               VK_PRValue, FPOptionsOverride());
  MemberPointers[Key] = E;
  return E;
}

void TransferDataflow::issueKernel(const CUDAKernelCallExpr *Launch,
                                   Disjunct &D,
                                   std::vector<TransferHazard> *Hazards) const {
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  std::optional<AsyncOperation> Op = asyncOperation(Launch);
  if (!Kernel || !Op)
    return;
  KernelIssue Issue{Launch, Kernel, writtenStream(*Op), {}};
  Issue.Stream = stream(Issue.StreamArg);
  for (unsigned I = 0; I < Launch->getNumArgs() && I < Kernel->getNumParams();
       ++I) {
    const Expr *Arg = Launch->getArg(I);
    QualType Param = Kernel->getParamDecl(I)->getType();
    if (Param->isPointerType() && !isLatch(Param->getPointeeType()))
      issueKernelMemory(Issue, I, {}, Arg, Arg, D, Hazards);
    // What the pointer members of a struct it is given point to ('s.buf',
    // 's->buf'): the kernel's body decides each.
    const RecordDecl *Record = Param->isPointerType()
                                   ? Param->getPointeeType()->getAsRecordDecl()
                                   : Param->getAsRecordDecl();
    if (!Record || !(Param->isPointerType() || Param->isRecordType()))
      continue;
    MemberPath Prefix;
    llvm::SmallVector<MemberPath, 4> Paths;
    pointerMembers(Record, Prefix, Paths);
    for (const MemberPath &Path : Paths)
      issueKernelMemory(Issue, I, Path,
                        memberPointer(Arg, Param->isPointerType(), Path), Arg,
                        D, Hazards);
  }
}

/// Memory of different kinds on different paths, every one a known
/// allocation and one of them memory both the host and a kernel reach
/// (managed or pinned): 'malloc' where the device can read pageable memory,
/// 'cudaMallocManaged' elsewhere (systemWideAtomics); 'cudaMalloc' for a
/// GPU source, 'cudaMallocHost' for the host (mgbench's uva). A host
/// access is reported only where the host touches the memory, which on
/// that path is the host's: the kernel's writes race with the host's
/// reads there (its reads, with the host's writes).
static bool hostReachableOnSomePath(const PointerValue &V) {
  // An unknown value with origins is one of mixed kinds (ProvenanceLattice).
  if (V.tag() != PointerValue::Tag::Unknown || V.origins().empty())
    return false;
  bool Reached = false;
  for (Origin O : V.origins()) {
    std::optional<MemoryKind> K = allocationKind(O);
    if (!K)
      return false;
    Reached |= *K == MemoryKind::Managed || *K == MemoryKind::Pinned;
  }
  return Reached;
}

void TransferDataflow::issueKernelMemory(
    const KernelIssue &Issue, unsigned Index, const MemberPath &Path,
    const Expr *Pointer, const Expr *Arg, Disjunct &D,
    std::vector<TransferHazard> *Hazards) const {
  const CUDAKernelCallExpr *Launch = Issue.Launch;
  // The address of one member of an object ('&h->done'): the host may
  // touch its other members; which part is which is not followed.
  if (const auto *Address = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
      Path.empty() && Address && Address->getOpcode() == UO_AddrOf &&
      isa<MemberExpr>(Address->getSubExpr()->IgnoreParens()))
    return;
  HostProvenance P = Provenance.pointerAt(Launch, Pointer);
  bool Device = P.is(MemoryKind::Device);

  // A pointer parameter whose memory is not known here: the callers know.
  const auto *Named = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
  bool CallerDecides =
      Path.empty() && !P.Kind && Named && isa<ParmVarDecl>(Named->getDecl());
  if (!(P.is(MemoryKind::Managed) || P.is(MemoryKind::Pinned) ||
        P.is(MemoryKind::Registered) || CallerDecides ||
        (!P.Kind &&
         hostReachableOnSomePath(Provenance.valueAt(Launch, Pointer))) ||
        (Device && (Scope.Communicates || Scope.SeveralStreams))))
    return;
  // The kernel's body decides; without it, a parameter to non-const may
  // be written (precision first: on device memory, or a member, only a
  // body that writes counts).
  std::optional<PointeeUse> Use = pointeeUse(Issue.Kernel, Index, Path);
  QualType Pointee = Pointer->getType()->getPointeeType();
  bool Writes = Use ? *Use == PointeeUse::Write
                    : !Pointee.isConstQualified() && !Device && Path.empty();
  if ((Use && *Use == PointeeUse::None) || (!Use && !Path.empty()))
    return;
  std::optional<BufferRef> Buffer = Accesses.bufferOf(Pointer);
  if (!Buffer || !Buffer->Base)
    return;
  if (Scope.Communicates)
    raceWithRequests(Launch, Arg, *Buffer, Writes, D, Hazards);
  if (Scope.SeveralStreams && !CallerDecides)
    deviceAccess(Launch, Arg, *Buffer, Writes, Issue.Stream, D, Hazards);
  PendingTransfer Issued{
      Launch, std::move(*Buffer), Issue.Stream, Issue.StreamArg, Writes, Arg};
  Issued.DeviceMemory = Device;
  Issued.CallerDecides = CallerDecides;
  uncoverReissued(D, Issued);
  addPending(D.Pending, std::move(Issued));
}

} // namespace cuda_async_lint::pending
