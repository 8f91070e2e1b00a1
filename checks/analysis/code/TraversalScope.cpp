//===- TraversalScope.cpp -------------------------------------------------===//

#include "TraversalScope.h"
#include "cuda-async-lint/ExecutionSpace.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace cuda_async_lint {

namespace {

bool isDeviceOnlyDeclaration(const Decl *D) {
  if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
    D = Template->getTemplatedDecl();
  const auto *FD = dyn_cast<FunctionDecl>(D);
  return FD && isDeviceOnly(FD);
}

void collect(const DeclContext *DC, const SourceManager &SM, bool SystemHeaders,
             std::vector<Decl *> &Out) {
  for (Decl *D : DC->decls()) {
    if (!SystemHeaders &&
        SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (isDeviceOnlyDeclaration(D))
      continue;
    // A namespace holds kernels as often as the file does.
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      collect(cast<DeclContext>(D), SM, SystemHeaders, Out);
      continue;
    }
    Out.push_back(D);
  }
}

} // namespace

std::vector<Decl *> hostTraversalScope(ASTContext &Ctx, bool SystemHeaders) {
  std::vector<Decl *> Scope;
  collect(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), SystemHeaders,
          Scope);
  return Scope;
}

} // namespace cuda_async_lint
