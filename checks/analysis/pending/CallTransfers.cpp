//===- CallTransfers.cpp - What calls of the unit's functions leave -------===//
//
// The pending-transfer dataflow's part for calls of the translation unit's
// functions: a member function's accesses to and transfers on its object's
// buffer members (MemberEffects.h), a function's transfers on what its
// pointer parameters point to (ParameterTransfers), and the objects a call
// may synchronize.
//
//===----------------------------------------------------------------------===//

#include "MemberEffects.h"
#include "TransferDataflow.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StdLibrary.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint::pending {

const MemberEffects *
TransferDataflow::memberCall(const CXXMemberCallExpr *Call, Disjunct &D,
                             std::vector<TransferHazard> *Hazards,
                             const Decl *&Object) const {
  Object = calledObject(Call, Function);
  const CXXMethodDecl *Method = Call->getMethodDecl();
  const SourceManager &SM = Ctx.getSourceManager();
  // Library classes (containers) are not the program's objects.
  if (!Method || SM.isInSystemHeader(SM.getExpansionLoc(Method->getLocation())))
    return nullptr;
  const CXXMethodDecl *Target = calledMethod(Call);
  const MemberEffects *Effects =
      Target ? Syncs.effects(Target, Provenances) : nullptr;
  if (!Effects) {
    eraseIf(D.Pending, [&](const PendingTransfer &P) {
      return (Object && P.Buffer.Object == Object) ||
             isa_and_nonnull<FieldDecl>(P.Stream.Decl);
    });
    return nullptr;
  }
  if (!Object)
    return Effects;
  for (const FieldDecl *Member : Effects->Reassigned)
    forgetMember(D, Member, Object);
  for (const MemberAccess &M : Effects->Accesses) {
    HostAccess A{Call, BufferRef{M.Member, {}, Object}, M.Kind, Call,
                 M.Spelled};
    for (auto It = D.Pending.begin(); It != D.Pending.end();) {
      const PendingTransfer &P = *It;
      if (P.Buffer.Base != M.Member || P.Buffer.Object != Object ||
          P.DeviceWrites != M.ConflictsWithDeviceWrites) {
        ++It;
        continue;
      }
      if (Hazards)
        Hazards->push_back({A, P});
      It = D.Pending.erase(It);
    }
  }
  return Effects;
}

void TransferDataflow::forgetMember(Disjunct &D, const ValueDecl *Member,
                                    const Decl *Object) {
  eraseIf(D.Pending, [&](const PendingTransfer &P) {
    return P.Buffer.Base == Member && P.Buffer.Object == Object;
  });
}

void TransferDataflow::issueParameterTransfers(const CallExpr *Call,
                                               Disjunct &D) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // An operator's arguments start with its object, not its parameters.
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return;
  for (const ParameterTransfer &T :
       Syncs.parameterTransfers(Callee, Provenances)) {
    if (T.Param >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(T.Param);
    HostProvenance P = Provenance.pointerAt(Call, Arg);
    if (P.is(MemoryKind::Pageable) || P.is(MemoryKind::Device))
      continue;
    // A kernel's work: only on memory the host can reach, known here, or
    // left to this function's callers in turn.
    bool Reachable = P.is(MemoryKind::Managed) || P.is(MemoryKind::Pinned) ||
                     P.is(MemoryKind::Registered);
    const auto *Param = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
    bool CallerDecides = T.Transfer.CallerDecides && !Reachable;
    if (T.Transfer.CallerDecides && !Reachable &&
        !(Param && isa<ParmVarDecl>(Param->getDecl())))
      continue;
    std::optional<BufferRef> Buffer = Accesses.bufferOf(Arg);
    if (!Buffer || !Buffer->Base)
      continue;
    PendingTransfer Pending = T.Transfer;
    Pending.CallerDecides = CallerDecides;
    Pending.Buffer = std::move(*Buffer);
    Pending.HostArg = Arg;
    // On a stream the caller passed: named as the caller names it.
    if (T.StreamParam) {
      Pending.StreamArg = *T.StreamParam < Call->getNumArgs()
                              ? Call->getArg(*T.StreamParam)
                              : nullptr;
      Pending.Stream =
          Pending.StreamArg ? stream(Pending.StreamArg) : StreamRef::unknown();
    }
    addPending(D.Pending, std::move(Pending));
  }
}

void TransferDataflow::issueMemberTransfers(const CXXMemberCallExpr *Call,
                                            const MemberEffects &Effects,
                                            const Decl *Object,
                                            Disjunct &D) const {
  for (const MemberTransfer &M : Effects.Transfers) {
    PendingTransfer P = M.Transfer;
    P.Buffer.Object = Object;
    // On a stream the caller passed: named as the caller names it.
    if (M.StreamParam) {
      P.StreamArg = *M.StreamParam < Call->getNumArgs()
                        ? Call->getArg(*M.StreamParam)
                        : nullptr;
      P.Stream = P.StreamArg ? stream(P.StreamArg) : StreamRef::unknown();
    }
    addPending(D.Pending, std::move(P));
  }
}

void TransferDataflow::forgetObjectsGiven(const CallExpr *Call,
                                          Disjunct &D) const {
  if (lookupApi(Call))
    return;
  for (const Expr *Arg : Call->arguments())
    if (const Decl *Object = objectArgument(Arg, Function))
      eraseIf(D.Pending, [&](const PendingTransfer &P) {
        return P.Buffer.Object == Object;
      });
}

} // namespace cuda_async_lint::pending
