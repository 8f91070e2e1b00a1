//===- OriginNotes.cpp - Where a pointer's memory came from, said ---------===//

#include "HostProvenance.h"
#include "analysis/code/StdLibrary.h"
#include "api/ReleaseSite.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

/// How an allocating call is spelled in a note: 'malloc', 'new[]', ...
static std::string allocatorName(const Stmt *S) {
  if (const auto *New = dyn_cast<CXXNewExpr>(S))
    return New->isArray() ? "new[]" : "new";
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return (FD->isInStdNamespace() ? "std::" : "") + FD->getNameAsString();
  return "";
}

OriginNote describeOrigin(Origin O, MemoryKind K, SourceManager &SM,
                          SourceLocation Site) {
  const auto *E = O.dyn_cast<const ExternalOrigin *>();
  if (!E)
    return describeOrigin(O, K);
  if (OptionalFileEntryRef File =
          SM.getFileManager().getOptionalFileRef(E->File)) {
    FileID FID = SM.getOrCreateFileID(*File, SrcMgr::C_User);
    SourceLocation Loc = SM.translateLineCol(FID, E->Line, E->Column);
    if (FID.isValid() && Loc.isValid())
      return {Loc, E->Note};
  }
  return {Site, E->Note + " (" + E->key() + ")"};
}

std::string originReleaser(Origin O) {
  if (const auto *E = O.dyn_cast<const ExternalOrigin *>())
    return E->Releaser;
  if (const auto *S = O.dyn_cast<const Stmt *>())
    return matchingReleaser(S);
  return "";
}

OriginNote describeOrigin(Origin O, MemoryKind K) {
  std::string Kind = memoryKindName(K).str();
  if (const auto *S = O.dyn_cast<const Stmt *>()) {
    if (isa<StringLiteral>(S))
      return {S->getBeginLoc(), "string literal storage is " + Kind};
    return {S->getBeginLoc(),
            Kind + " memory allocated here with '" + allocatorName(S) + "'"};
  }
  const auto *D = cast<const Decl *>(O);
  if (const auto *FD = dyn_cast<FieldDecl>(D);
      FD && !isPageableHeapContainer(FD->getType()))
    return {FD->getLocation(), "'" + FD->getNameAsString() +
                                   "' is a data member of '*this', an "
                                   "object in " +
                                   Kind + " host memory"};
  if (const auto *FD = dyn_cast<FieldDecl>(D))
    return {FD->getLocation(),
            "the storage of member '" + FD->getNameAsString() +
                "' (default allocator) is " + Kind + " memory"};
  const auto *VD = cast<VarDecl>(D);
  std::string Name = "'" + VD->getNameAsString() + "'";
  if (VD->getType()->isReferenceType() &&
      isPageableHeapContainer(VD->getType()))
    return {VD->getLocation(), "the storage of " + Name +
                                   " (default allocator) is " + Kind +
                                   " memory"};
  if (isPageableContainer(VD->getType()))
    return {VD->getLocation(),
            "the storage of " + Name + " is " + Kind + " memory"};
  if (K != MemoryKind::Pageable)
    return {VD->getLocation(), Name + " is a " + Kind + " variable"};
  if (VD->hasLocalStorage())
    return {VD->getLocation(),
            Name + " is a local variable: its storage is " + Kind + " memory"};
  return {VD->getLocation(), Name + " has static storage: " + Kind + " memory"};
}

} // namespace cuda_async_lint
