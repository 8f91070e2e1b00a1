//===- DeviceCodeErrors.cpp -----------------------------------------------===//

#include "DeviceCodeErrors.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

/// The file ranges of the device-only function definitions in the files
/// that hold an error.
class DeviceBodies : public RecursiveASTVisitor<DeviceBodies> {
public:
  DeviceBodies(const SourceManager &SM, const llvm::DenseSet<FileID> &Files)
      : SM(SM), Files(Files) {}

  std::vector<CharSourceRange> Ranges;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool TraverseDecl(Decl *D) {
    // Skip whole declarations of files without errors (the headers).
    if (D && !isa<TranslationUnitDecl>(D) && !isa<NamespaceDecl>(D) &&
        !isa<LinkageSpecDecl>(D) && D->getLocation().isValid() &&
        !Files.contains(SM.getFileID(SM.getExpansionLoc(D->getLocation()))))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && isDeviceOnly(FD))
      Ranges.push_back(SM.getExpansionRange(FD->getSourceRange()));
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (const CXXMethodDecl *Call = L->getCallOperator();
        Call && isDeviceOnly(Call))
      Ranges.push_back(SM.getExpansionRange(L->getSourceRange()));
    return true;
  }

private:
  const SourceManager &SM;
  const llvm::DenseSet<FileID> &Files;
};

} // namespace

bool onlyInDeviceCode(const std::vector<SourceLocation> &Errors,
                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<FileID> Files;
  for (SourceLocation L : Errors) {
    if (L.isInvalid())
      return false;
    Files.insert(SM.getFileID(SM.getExpansionLoc(L)));
  }
  DeviceBodies Bodies(SM, Files);
  Bodies.TraverseDecl(Ctx.getTranslationUnitDecl());
  return llvm::all_of(Errors, [&](SourceLocation L) {
    SourceLocation At = SM.getExpansionLoc(L);
    return llvm::any_of(Bodies.Ranges, [&](const CharSourceRange &R) {
      return !SM.isBeforeInTranslationUnit(At, R.getBegin()) &&
             !SM.isBeforeInTranslationUnit(R.getEnd(), At);
    });
  });
}

} // namespace cuda_async_lint
