//===- InstantiationChain.cpp ---------------------------------------------===//

#include "InstantiationChain.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace cuda_async_lint {
namespace {

/// Whether a body names \p Target: calls it, takes it, constructs with it.
class NamesFunction : public RecursiveASTVisitor<NamesFunction> {
public:
  explicit NamesFunction(const FunctionDecl *Target) : Target(Target) {}
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return !see(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return !see(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return !see(E->getConstructor());
  }
  bool Found = false;

private:
  bool see(const Decl *D) {
    Found |= D && D->getCanonicalDecl() == Target->getCanonicalDecl();
    return Found;
  }
  const FunctionDecl *Target;
};

/// The instantiated function of the user's code whose body holds \p At and
/// names \p Callee.
class Requester : public RecursiveASTVisitor<Requester> {
public:
  Requester(const FunctionDecl *Callee, SourceLocation At,
            const SourceManager &SM)
      : Callee(Callee), At(SM.getExpansionLoc(At)), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *D) {
    // The toolkit's and the standard library's templates are not where a
    // user's chain continues.
    if (Found || (D && !isa<TranslationUnitDecl>(D) &&
                  SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()))))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *Candidate) {
    if (Found || Candidate == Callee || Candidate->isDependentContext() ||
        !Candidate->isTemplateInstantiation())
      return true;
    const Stmt *Body = Candidate->getBody();
    if (!Body)
      return true;
    CharSourceRange Range = SM.getExpansionRange(Body->getSourceRange());
    if (!SM.isPointWithin(At, Range.getBegin(), Range.getEnd()))
      return true;
    NamesFunction Names(Callee);
    Names.TraverseStmt(const_cast<Stmt *>(Body));
    if (Names.Found)
      Found = Candidate;
    return true;
  }

  const FunctionDecl *Found = nullptr;

private:
  const FunctionDecl *Callee;
  SourceLocation At;
  const SourceManager &SM;
};

} // namespace

std::vector<FindingNote> instantiationChain(const FunctionDecl *FD,
                                            ASTContext &Ctx) {
  std::vector<FindingNote> Notes;
  // Deep enough for policy classes and CRTP; a chain longer than this is
  // cut, as clang cuts its own (-ftemplate-backtrace-limit).
  constexpr unsigned MaxLinks = 10;
  while (FD && FD->isTemplateInstantiation() && Notes.size() < MaxLinks) {
    SourceLocation At = FD->getPointOfInstantiation();
    if (At.isInvalid())
      break;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
    Notes.push_back({At, "in instantiation of '" + Name + "' requested here"});
    Requester Next(FD, At, Ctx.getSourceManager());
    Next.TraverseDecl(Ctx.getTranslationUnitDecl());
    FD = Next.Found;
  }
  return Notes;
}

} // namespace cuda_async_lint
