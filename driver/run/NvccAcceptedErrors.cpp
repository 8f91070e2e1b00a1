//===- NvccAcceptedErrors.cpp ---------------------------------------------===//

#include "NvccAcceptedErrors.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticSema.h"
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

bool isHostDialectError(unsigned DiagID) {
  // GCC (nvcc's host compiler) initializes a variable-length array; clang
  // reports the initializer and keeps the array and its uses.
  return DiagID == diag::err_variable_object_no_init;
}

bool onlyErrorsNvccAccepts(const std::vector<SourceLocation> &Locations,
                           const std::vector<unsigned> &IDs, ASTContext &Ctx) {
  assert(Locations.size() == IDs.size() && "one ID per error");
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<FileID> Files;
  for (size_t I = 0; I < Locations.size(); ++I) {
    if (Locations[I].isInvalid())
      return false;
    if (!isHostDialectError(IDs[I]))
      Files.insert(SM.getFileID(SM.getExpansionLoc(Locations[I])));
  }
  if (Files.empty())
    return true;
  DeviceBodies Bodies(SM, Files);
  Bodies.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (size_t I = 0; I < Locations.size(); ++I) {
    if (isHostDialectError(IDs[I]))
      continue;
    SourceLocation At = SM.getExpansionLoc(Locations[I]);
    if (llvm::none_of(Bodies.Ranges, [&](const CharSourceRange &R) {
          return !SM.isBeforeInTranslationUnit(At, R.getBegin()) &&
                 !SM.isBeforeInTranslationUnit(R.getEnd(), At);
        }))
      return false;
  }
  return true;
}

} // namespace cuda_async_lint
