//===- DeallocMismatchCheck.cpp - cuda-async-dealloc-mismatch -------------===//

#include "DeallocMismatchCheck.h"
#include "analysis/code/HostFunctions.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

DeallocMismatchCheck::DeallocMismatchCheck(DiagnosticSink &Sink)
    : ProvenanceCheck("cuda-async-dealloc-mismatch", Sink) {}

void DeallocMismatchCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(stmt(releaseSiteMatcher("release"),
                         inHostFunction(functionDecl().bind("function"))),
                    this);
  // Calls of the unit's functions that release what they are given.
  Finder.addMatcher(callOfUserFunction(), this);
}

/// True if a releaser expecting \p Expects must not be given \p Actual.
/// Registered memory is pageable: free() of it is host-register-leak's
/// business, cudaFreeHost() of it a mismatch.
static bool isMismatch(MemoryKind Expects, MemoryKind Actual) {
  switch (Expects) {
  case MemoryKind::Pageable:
    return Actual == MemoryKind::Pinned || Actual == MemoryKind::Managed ||
           Actual == MemoryKind::Device;
  case MemoryKind::Pinned:
    return Actual != MemoryKind::Pinned;
  case MemoryKind::Device:
  case MemoryKind::Managed:
    return Actual == MemoryKind::Pageable || Actual == MemoryKind::Pinned ||
           Actual == MemoryKind::Registered;
  case MemoryKind::Registered:
    return false;
  }
  return false;
}

/// Replaces the releaser of \p Site by \p Right: the callee's name, or the
/// whole delete expression by a call. None inside macros.
static std::optional<FixIt> releaserFix(const ReleaseSite &Site,
                                        llvm::StringRef Right,
                                        const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *Call = dyn_cast<CallExpr>(Site.At)) {
    CharSourceRange Callee = CharSourceRange::getTokenRange(
        Call->getCallee()->IgnoreImpCasts()->getSourceRange());
    if (Callee.getBegin().isMacroID() || Callee.getEnd().isMacroID())
      return std::nullopt;
    return FixIt{Callee, Right.str()};
  }
  CharSourceRange Whole =
      CharSourceRange::getTokenRange(Site.At->getSourceRange());
  CharSourceRange Arg =
      CharSourceRange::getTokenRange(Site.Ptr->getSourceRange());
  if (Whole.getBegin().isMacroID() || Whole.getEnd().isMacroID() ||
      Arg.getBegin().isMacroID())
    return std::nullopt;
  llvm::StringRef ArgText = Lexer::getSourceText(Arg, SM, Ctx.getLangOpts());
  return FixIt{Whole, (Right + "(" + ArgText + ")").str()};
}

/// True if \p Name is a catalogued releaser of pinned memory (cudaFreeHost,
/// cuMemFreeHost, hipHostFree, ...).
static bool releasesPinned(llvm::StringRef Name) {
  const ApiSpec *Api = lookupApi(Name);
  return Api && Api->Platform && Api->Kind == ApiKind::Release &&
         Api->Memory == MemoryKind::Pinned;
}

/// The releaser that fits every allocation \p P may come from (empty if
/// none was allocated); none where they disagree. \p Unallocated: some
/// origin is storage no allocator returned.
static std::optional<std::string> fittingReleaser(const HostProvenance &P,
                                                  bool &Unallocated) {
  std::string Right;
  Unallocated = false;
  for (Origin O : P.Origins) {
    std::string Releaser = originReleaser(O);
    if (Releaser.empty()) {
      Unallocated = true;
      continue;
    }
    if (!Right.empty() && Releaser != Right)
      return std::nullopt;
    Right = Releaser;
  }
  return Right;
}

void DeallocMismatchCheck::checkHelperCall(const CallExpr *Call,
                                           const FunctionDecl *Helper,
                                           const FunctionDecl *Function,
                                           ASTContext &Ctx) {
  const FunctionDecl *HelperDef = nullptr;
  if (!Helper->hasBody(HelperDef))
    return;
  std::set<unsigned> Reported;
  for (const ParameterRelease &PR : HelperReleases.get(
           Helper->getCanonicalDecl(),
           [](const FunctionDecl *FD) { return parameterReleases(FD); })) {
    if (PR.Param >= Call->getNumArgs() || Reported.count(PR.Param))
      continue;
    // Known at the release (every caller agrees): it is reported there.
    if (provenanceAt(HelperDef, PR.Site.At, PR.Site.Ptr, Ctx).Kind)
      continue;
    const Expr *Arg = Call->getArg(PR.Param);
    HostProvenance P = provenanceAt(Function, Call, Arg, Ctx);
    if (!P.Kind || !isMismatch(PR.Site.Expects, *P.Kind) ||
        P.is(MemoryKind::Registered))
      continue;
    bool Unallocated;
    std::optional<std::string> Right = fittingReleaser(P, Unallocated);
    if (!Right || Right->empty() || Unallocated)
      continue;
    Reported.insert(PR.Param);
    Finding F;
    F.Function = Function;
    F.Loc = Arg->getBeginLoc();
    F.Message = "'" + Helper->getNameAsString() + "' releases this " +
                memoryKindName(*P.Kind).str() + " memory with '" +
                PR.Site.Releaser + "'; release it with '" + *Right + "'";
    for (Origin O : P.Origins) {
      OriginNote Note =
          describeOrigin(O, *P.Kind, Ctx.getSourceManager(), F.Loc);
      F.Notes.push_back({Note.Loc, Note.Message});
    }
    F.Notes.push_back({PR.Site.At->getBeginLoc(), "the release"});
    report(std::move(F), Ctx);
  }
}

void DeallocMismatchCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("call")) {
    if (!Function->isDependentContext())
      checkHelperCall(Call, R.Nodes.getNodeAs<FunctionDecl>("helper"), Function,
                      *R.Context);
    return;
  }
  std::optional<ReleaseSite> Site =
      releaseSite(R.Nodes.getNodeAs<Expr>("release"));
  if (!Site)
    return;
  HostProvenance P = provenanceAt(Function, Site->At, Site->Ptr, *R.Context);
  if (!P.Kind || !isMismatch(Site->Expects, *P.Kind))
    return;

  // The releaser that fits every allocation the pointer may come from.
  bool Unallocated;
  std::optional<std::string> Fitting = fittingReleaser(P, Unallocated);
  if (!Fitting)
    return;
  std::string Right = std::move(*Fitting);
  // Storage nobody allocated (a stack or global array, a container's) given
  // to CUDA's releaser on every path: the call fails
  // (cudaErrorInvalidValue), and what the storage holds stays allocated.
  if (Unallocated) {
    if (Right.empty() && Site->Expects != MemoryKind::Pageable)
      reportUnallocated(*Site, P, Function, *R.Context);
    return;
  }

  Finding F;
  F.Function = Function;
  F.Loc = Site->At->getBeginLoc();
  bool Registered = P.is(MemoryKind::Registered);
  F.Message =
      "'" + Site->Releaser + "' releases " +
      (Registered ? "registered pageable" : memoryKindName(*P.Kind).str()) +
      " memory; " +
      (Registered ? "unregister it with '" +
                        unregisterAdvice(P.RegisteredBy, *R.Context) + "' and "
                  : "") +
      "release it with '" + Right + "'";
  for (Origin O : P.Origins) {
    OriginNote Note =
        describeOrigin(O, Registered ? MemoryKind::Pageable : *P.Kind,
                       R.Context->getSourceManager(), F.Loc);
    F.Notes.push_back({Note.Loc, Note.Message});
  }
  // The mechanical fixes: pinned memory given to free/delete goes to
  // cudaFreeHost (hipHostFree); malloc'd memory given to them goes to free.
  bool ToFreeHost = P.is(MemoryKind::Pinned) &&
                    Site->Expects == MemoryKind::Pageable &&
                    Site->Releaser != "realloc" && releasesPinned(Right);
  bool ToFree = P.is(MemoryKind::Pageable) && Right == "free" &&
                releasesPinned(Site->Releaser);
  if (ToFreeHost || ToFree)
    if (std::optional<FixIt> Fix = releaserFix(*Site, Right, *R.Context))
      F.Fixes.push_back(std::move(*Fix));
  report(std::move(F), *R.Context);
}

void DeallocMismatchCheck::reportUnallocated(const ReleaseSite &Site,
                                             const HostProvenance &P,
                                             const FunctionDecl *Function,
                                             ASTContext &Ctx) {
  Finding F;
  F.Function = Function;
  F.Loc = Site.At->getBeginLoc();
  F.Message = "'" + Site.Releaser +
              "' releases host memory that no allocator returned, and fails";
  // 'int *d[2]; ... cudaFree(d);': the elements were meant.
  const Expr *Ptr = Site.Ptr->IgnoreParenImpCasts();
  if (Ptr->getType()->isArrayType() && Ptr->getType()
                                           ->castAsArrayTypeUnsafe()
                                           ->getElementType()
                                           ->isPointerType())
    F.Message += "; it is an array of pointers: release each element ('" +
                 Site.Releaser + "(" +
                 Lexer::getSourceText(
                     CharSourceRange::getTokenRange(Ptr->getSourceRange()),
                     Ctx.getSourceManager(), Ctx.getLangOpts())
                     .str() +
                 "[i])')";
  for (Origin O : P.Origins) {
    OriginNote Note = describeOrigin(O, *P.Kind, Ctx.getSourceManager(), F.Loc);
    F.Notes.push_back({Note.Loc, Note.Message});
  }
  report(std::move(F), Ctx);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(DeallocMismatchCheck)

} // namespace cuda_async_lint
