//===- HostRegisterLeakCheck.cpp - cuda-async-host-register-leak ----------===//

#include "HostRegisterLeakCheck.h"
#include "analysis/code/HostFunctions.h"
#include "analysis/dataflow/BodyParents.h"
#include "analysis/provenance/MemberRegistration.h"
#include "api/ReleaseSite.h"
#include "cuda-async-lint/CheckRegistry.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace cuda_async_lint {

HostRegisterLeakCheck::HostRegisterLeakCheck(DiagnosticSink &Sink)
    : ProvenanceCheck("cuda-async-host-register-leak", Sink) {}

void HostRegisterLeakCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(stmt(releaseSiteMatcher("release"),
                         inHostFunction(functionDecl().bind("function"))),
                    this);
  Finder.addMatcher(callExpr(apiCall(ApiKind::Unregister),
                             inHostFunction(functionDecl().bind("function")))
                        .bind("unregister"),
                    this);
}

void HostRegisterLeakCheck::resetTranslationUnit() {
  LeftRegistered.clear();
  ProvenanceCheck::resetTranslationUnit();
}

/// Inserts 'Unregister(ptr);' on a line of its own before the release, when
/// the release is a statement of its own (not inside an if without braces,
/// a macro, or an expression) and the pointer has no side effects.
static std::optional<FixIt> unregisterFix(const ReleaseSite &Site,
                                          llvm::StringRef Unregister,
                                          const FunctionDecl *Function,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // A finding is rare: its function's map is made for it alone.
  BodyParents Parents;
  if (!isa_and_nonnull<CompoundStmt>(Parents.parent(Function, Site.At)) ||
      Site.Ptr->HasSideEffects(Ctx))
    return std::nullopt;
  SourceLocation Begin = Site.At->getBeginLoc();
  CharSourceRange Arg =
      CharSourceRange::getTokenRange(Site.Ptr->getSourceRange());
  if (Begin.isMacroID() || Arg.getBegin().isMacroID() ||
      Arg.getEnd().isMacroID())
    return std::nullopt;
  llvm::StringRef ArgText = Lexer::getSourceText(Arg, SM, Ctx.getLangOpts());
  // The release's indentation, for the inserted line.
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin));
  unsigned Offset = SM.getFileOffset(Begin);
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Indent = Buffer.slice(LineStart, Offset);
  if (!Indent.trim().empty())
    return std::nullopt; // Not first on its line.
  return FixIt{CharSourceRange::getCharRange(Begin, Begin),
               (Unregister + "(" + ArgText + ");\n" + Indent).str()};
}

/// The text of \p E without its casts and a zero offset ('(void *)p' and
/// 'p + 0' are 'p').
static llvm::StringRef spelling(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp() && BO->getLHS()->getType()->isPointerType())
    if (std::optional<int64_t> Offset = integerConstant(BO->getRHS(), Ctx);
        Offset && *Offset == 0)
      E = BO->getLHS()->IgnoreParenCasts();
  return Lexer::getSourceText(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

/// True if every registration in \p By registered the pointer the release
/// spells as \p Ptr: cudaHostUnregister needs the address that was
/// registered, which an aligned alias ('cudaHostRegister(aligned, ...)',
/// 'free(raw)') is not.
static bool registeredAsReleased(llvm::ArrayRef<const CallExpr *> By,
                                 const Expr *Ptr, ASTContext &Ctx) {
  llvm::StringRef Released = spelling(Ptr, Ctx);
  return !Released.empty() && llvm::all_of(By, [&](const CallExpr *Call) {
    const ApiSpec *Api = lookupApi(Call);
    const Expr *Registered = Api ? Api->arg(Call, ArgRole::Ptr) : nullptr;
    return Registered && spelling(Registered, Ctx) == Released;
  });
}

/// The note at a registration: the API it calls, or a helper's call.
static std::string registeredBy(const CallExpr *By) {
  const ApiSpec *Api = lookupApi(By);
  return Api ? "registered here with '" + Api->Name.str() + "'"
             : "registered by this call";
}

void HostRegisterLeakCheck::run(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  if (const auto *Call = R.Nodes.getNodeAs<CallExpr>("unregister"))
    checkUnregistration(Call, Function, *R.Context);
  else
    checkRelease(R);
}

void HostRegisterLeakCheck::checkUnregistration(const CallExpr *Call,
                                                const FunctionDecl *Function,
                                                ASTContext &Ctx) {
  const std::vector<ParameterLeftRegistered> &Left =
      LeftRegistered.get(Function, [&](const FunctionDecl *FD) {
        return parametersLeftRegistered(FD, provenance(Ctx), Ctx);
      });
  for (const ParameterLeftRegistered &L : Left) {
    if (L.SiblingUnregistered != Call)
      continue;
    llvm::StringRef Registrar =
        platformApis(registrarOf({L.RegisteredBy}, Ctx)).Registrar;
    Finding F;
    F.Function = Function;
    F.Loc = Call->getBeginLoc();
    F.Message = "'" + Function->getNameAsString() + "' returns with '" +
                L.Param->getNameAsString() + "' still registered with " +
                Registrar.str() + ": '" + L.Sibling->getNameAsString() +
                "', which it also registered, is unregistered here, '" +
                L.Param->getNameAsString() + "' never; call '" +
                unregisterAdvice({L.RegisteredBy}, Ctx) + "' on it too";
    F.Notes.push_back({L.RegisteredBy->getBeginLoc(),
                       "'" + L.Param->getNameAsString() + "' " +
                           registeredBy(L.RegisteredBy)});
    report(std::move(F), Ctx);
  }
}

void HostRegisterLeakCheck::checkRelease(const MatchFinder::MatchResult &R) {
  const auto *Function = R.Nodes.getNodeAs<FunctionDecl>("function");
  std::optional<ReleaseSite> Site =
      releaseSite(R.Nodes.getNodeAs<Expr>("release"));
  // Only the releasers of pageable memory: free, delete, realloc, munmap.
  if (!Site || Site->Expects != MemoryKind::Pageable)
    return;
  HostProvenance P = provenanceAt(Function, Site->At, Site->Ptr, *R.Context);
  // A pageable buffer member registered for the object's life by another
  // member function ('Counter() { ...; cudaHostRegister(h, ...); }',
  // '~Counter() { free(h); }'). What the class registers is pageable (or,
  // its registration being the field's fate, not known as anything else).
  if (!P.Kind || P.is(MemoryKind::Pageable))
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Function))
      if (const auto *ME = dyn_cast<MemberExpr>(Site->Ptr->IgnoreParenCasts()))
        if (const auto *Member = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          if (const CallExpr *By = registrationInForce(Member, Method))
            P.RegisteredBy = {By};
  if (!P.is(MemoryKind::Registered) && P.RegisteredBy.empty())
    return;

  llvm::StringRef Registrar =
      platformApis(registrarOf(P.RegisteredBy, *R.Context)).Registrar;
  // Where the registrations disagree, the message advises one and no fix is
  // offered.
  std::string Unregister = unregisterCall(P.RegisteredBy, *R.Context);
  Finding F;
  F.Function = Function;
  F.Loc = Site->At->getBeginLoc();
  F.Message = "'" + Site->Releaser +
              "' releases memory that is still registered with " +
              Registrar.str() + "; call '" +
              unregisterAdvice(P.RegisteredBy, *R.Context) + "' first";
  for (const CallExpr *By : P.RegisteredBy)
    F.Notes.push_back({By->getBeginLoc(), registeredBy(By)});
  if (!Unregister.empty() &&
      registeredAsReleased(P.RegisteredBy, Site->Ptr, *R.Context))
    if (std::optional<FixIt> Fix =
            unregisterFix(*Site, Unregister, Function, *R.Context))
      F.Fixes.push_back(std::move(*Fix));
  report(std::move(F), *R.Context);
}

CUDA_ASYNC_LINT_CHECK_FACTORY(HostRegisterLeakCheck)

} // namespace cuda_async_lint
