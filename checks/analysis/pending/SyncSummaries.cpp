//===- SyncSummaries.cpp - What a unit's functions synchronize ------------===//
//
// SyncSummaries (PendingTransfers.h): each function's SyncSummary, computed
// once (sync/SyncDataflow.h), or read from the program's summaries for a
// function of another unit.
//
//===----------------------------------------------------------------------===//

#include "MemberEffects.h"
#include "PendingTransfers.h"
#include "analysis/code/UnitShared.h"
#include "analysis/sync/SyncDataflow.h"
#include "api/AsyncOperation.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

CallSyncs SyncSummaries::callSyncs(const CallExpr *Call, const FunctionDecl *FD,
                                   const SyncSummary *&Summary) {
  SyncShape Shape;
  Shape.OpaqueWithoutSummary = isOpaqueFunction(FD, Ctx);
  Shape.NumArgs = Call->getNumArgs();
  for (unsigned I = 0; I < Shape.NumArgs; ++I) {
    QualType T = Call->getArg(I)->getType();
    if (isStreamType(T))
      Shape.Streams.push_back(I);
    else if (isEventType(T))
      Shape.Events.push_back(I);
  }
  Summary = summary(FD);
  if (!FD->hasBody())
    Program.note(FD, ProgramQuestion::Kind::Syncs, Shape.text());
  return cuda_async_lint::callSyncs(Summary, Shape);
}

const SyncSummary *SyncSummaries::summary(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  // Defined in another unit of the program: its summary there.
  if (!FD->hasBody(Def)) {
    const FunctionFacts *Facts = Program.facts(FD);
    return Facts ? &Facts->Sync : nullptr;
  }
  if (!Def || Ctx.getSourceManager().isInSystemHeader(Def->getLocation()) ||
      InProgress.count(Def))
    return nullptr;
  if (auto It = Done.find(Def); It != Done.end())
    return &It->second;
  InProgress.insert(Def);
  SyncSummary Summary =
      summarizeSyncs(Def, Ctx,
                     [this](const CallExpr *Call, const FunctionDecl *FD,
                            const SyncSummary *&Callee) {
                       return callSyncs(Call, FD, Callee);
                     });
  InProgress.erase(Def);
  return &(Done[Def] = std::move(Summary));
}

SyncSummaries::SyncSummaries(ASTContext &Ctx)
    : Ctx(Ctx), Program(Ctx.getSourceManager()) {}
SyncSummaries::~SyncSummaries() = default;

std::shared_ptr<SyncSummaries>
SyncSummaries::forTranslationUnit(ASTContext &Ctx) {
  return unitShared<SyncSummaries>(Ctx);
}

} // namespace cuda_async_lint
