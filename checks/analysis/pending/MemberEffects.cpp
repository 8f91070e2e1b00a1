//===- MemberEffects.cpp - What a member function does to members ---------===//

#include "MemberEffects.h"
#include "TransferDataflow.h"
#include "analysis/code/ObjectReferences.h"
#include "analysis/code/StdLibrary.h"
#include "analysis/code/StmtWalk.h"
#include "analysis/code/StorageAccessors.h"
#include "analysis/dataflow/ForwardDataflow.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

using namespace pending;

/// 'h', 'this->h', 'values.data()': a member named whole.
static bool isWholeMember(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    // 'v.data()', or a class's accessor of its storage from the start
    // ('m.lane(0)', 'm.MutableData()').
    bool FromStart =
        MD && ((MD->getIdentifier() && MD->getName() == "data") ||
               (ownStorage(MD) &&
                llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
                  std::optional<int64_t> I =
                      integerConstant(Arg, MD->getASTContext());
                  return I && *I == 0;
                })));
    if (!FromStart)
      return false;
    E = Call->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  return isa<MemberExpr>(E);
}

/// The buffer members of \p Class and its bases: pointers to data, arrays,
/// containers, and objects of classes that hand out their storage
/// (StorageAccessors.h).
static void bufferMembers(const CXXRecordDecl *Class,
                          std::vector<const FieldDecl *> &Out, int Depth = 0) {
  if (!Class || !Class->hasDefinition() || Depth > 8)
    return;
  for (const FieldDecl *F : Class->fields()) {
    QualType T = F->getType();
    if ((T->isPointerType() && !T->getPointeeType()->isFunctionType()) ||
        T->isArrayType() || isPageableContainer(T) ||
        handsOutStorage(T->getAsCXXRecordDecl()))
      Out.push_back(F);
  }
  for (const CXXBaseSpecifier &Base : Class->bases())
    bufferMembers(Base.getType()->getAsCXXRecordDecl(), Out, Depth + 1);
}

const MemberEffects *SyncSummaries::effects(const CXXMethodDecl *MD,
                                            ProvenanceAnalysis &Provenance) {
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def || MD->isStatic() ||
      Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      EffectsInProgress.count(Def))
    return nullptr;
  if (auto It = Effects.find(Def); It != Effects.end())
    return It->second.get();
  std::unique_ptr<CFG> Cfg = buildAnalysisCFG(Def, Ctx, /*Lifetimes=*/true);
  if (!Cfg)
    return nullptr;
  EffectsInProgress.insert(Def);
  // Stand-ins for the caller's transfers: one per buffer member and kind,
  // on a stream any sync may cover (precision first). The first access
  // each meets is the access the caller's transfer would.
  TransferSet Seed;
  std::vector<const FieldDecl *> Members;
  bufferMembers(cast<CXXMethodDecl>(Def)->getParent(), Members);
  for (const FieldDecl *F : Members)
    for (bool DeviceWrites : {false, true})
      Seed.insert({nullptr, BufferRef{F, {}, Def}, StreamRef::unknown(),
                   nullptr, DeviceWrites});
  HostAccessFinder Accesses(Def);
  TransferDataflow Dataflow(Def, Ctx, Provenance, *this, Accesses,
                            std::move(Seed));
  std::vector<TransferHazard> Hazards;
  std::vector<std::optional<PendingState>> In =
      solveAndReplay(*Cfg, Dataflow, Hazards);
  auto Result = std::make_unique<MemberEffects>();
  // Pointer members it points elsewhere, itself or through a member
  // function of its own object.
  forEachStmt(Def->getBody(), [&](const Stmt *S) {
    llvm::SmallVector<BufferRef, 2> Reassigned;
    Accesses.reassignedMembers(S, Reassigned);
    for (const BufferRef &B : Reassigned)
      if (B.Object == Def)
        Result->Reassigned.insert(cast<FieldDecl>(B.Base));
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      if (calledObject(Call, Def) == Def)
        if (const CXXMethodDecl *Callee = calledMethod(Call))
          if (const MemberEffects *Inner = effects(Callee, Provenance))
            Result->Reassigned.insert(Inner->Reassigned.begin(),
                                      Inner->Reassigned.end());
  });
  for (const TransferHazard &H : Hazards)
    if (!H.Transfer.Op) // A stand-in: the caller's transfer would meet it.
      Result->Accesses.push_back(
          {cast<FieldDecl>(H.Transfer.Buffer.Base), H.Access.Kind, H.Access.At,
           H.Access.Within ? H.Access.Within : H.Access.Spelled,
           H.Transfer.DeviceWrites});
  TransferSet Left;
  // Where it returns: a path that throws or calls a function that does not
  // return (Kaldi's KALDI_ERR after a failed call) never comes back to the
  // caller with its transfers in flight.
  if (const std::optional<PendingState> Exit = returnState(*Cfg, Dataflow, In))
    for (const Disjunct &D : Exit->Disjuncts)
      for (const PendingTransfer &P : D.Pending)
        // The whole member, of this object, as written: a slice ('h + i',
        // 'slots[current]') may not be the part the caller touches next.
        if (P.Op && P.Buffer.Object == Def && P.Buffer.Deps.empty() &&
            isa<FieldDecl>(P.Buffer.Base) && P.HostArg &&
            isWholeMember(P.HostArg))
          Left.insert(P);
  for (PendingTransfer P : Left) {
    MemberTransfer M{P, std::nullopt};
    M.Transfer.Buffer.Object = nullptr;
    if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(P.Stream.Decl))
      M.StreamParam = PD->getFunctionScopeIndex();
    else if (P.Stream.Decl && !isa<FieldDecl>(P.Stream.Decl))
      M.Transfer.Stream = StreamRef::unknown(); // A local stream.
    Result->Transfers.push_back(std::move(M));
  }
  EffectsInProgress.erase(Def);
  return (Effects[Def] = std::move(Result)).get();
}

} // namespace cuda_async_lint
