//===- UninstantiatedTemplates.cpp ----------------------------------------===//

#include "cuda-async-lint/UninstantiatedTemplates.h"
#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FileSystem.h"

using namespace clang;

namespace cuda_async_lint {
namespace {

/// Whether a template's body calls the API the checks know (a dependent
/// call that names it counts) or launches a kernel.
class UsesCudaApi : public RecursiveASTVisitor<UsesCudaApi> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    Found |= isa<CUDAKernelCallExpr>(Call) || lookupApi(Call);
    return !Found;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    for (const NamedDecl *D : E->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl()))
        Found |= lookupApi(FD) != nullptr;
    return !Found;
  }
  bool Found = false;
};

bool usesCudaApi(const FunctionDecl *FD) {
  UsesCudaApi V;
  V.TraverseStmt(FD->getBody());
  return V.Found;
}

/// The templates of one file, and the patterns the unit instantiated.
class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(const SourceManager &SM, StringRef File) : SM(SM), File(File) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isDependentContext()) {
      // A definition of the file's templates' code.
      if (FD->doesThisDeclarationHaveABody() && inFile(FD->getLocation()) &&
          !isa<CXXDeductionGuideDecl>(FD) && !FD->isImplicit())
        Patterns.push_back(FD);
      return true;
    }
    // An instantiation whose body was made: its pattern ran here.
    if (FD->isTemplateInstantiation() && FD->hasBody())
      if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
        Instantiated.insert(Pattern->getCanonicalDecl());
    return true;
  }

  std::vector<const FunctionDecl *> Patterns;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Instantiated;

private:
  bool inFile(SourceLocation Loc) {
    FileID ID = SM.getFileID(SM.getExpansionLoc(Loc));
    auto It = Known.find(ID);
    if (It == Known.end()) {
      bool Same = false;
      if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(ID)) {
        llvm::SmallString<256> Real;
        Same =
            !llvm::sys::fs::real_path(Entry->getName(), Real) && Real == File;
      }
      It = Known.try_emplace(ID, Same).first;
    }
    return It->second;
  }
  const SourceManager &SM;
  StringRef File;
  llvm::DenseMap<FileID, bool> Known;
};

} // namespace

std::vector<UninstantiatedTemplate> uninstantiatedTemplates(ASTContext &Ctx,
                                                            StringRef File) {
  Finder F(Ctx.getSourceManager(), File);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<UninstantiatedTemplate> Result;
  for (const FunctionDecl *Pattern : F.Patterns) {
    // A generic lambda's call operator, a local class's member: their
    // enclosing template is the one named.
    if (isa<CXXMethodDecl>(Pattern) &&
        cast<CXXMethodDecl>(Pattern)->getParent()->isLambda())
      continue;
    if (F.Instantiated.contains(Pattern->getCanonicalDecl()) ||
        !usesCudaApi(Pattern))
      continue;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    Pattern->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                  /*Qualified=*/true);
    Result.push_back({Name, Ctx.getSourceManager().getExpansionLineNumber(
                                Pattern->getLocation())});
  }
  return Result;
}

} // namespace cuda_async_lint
