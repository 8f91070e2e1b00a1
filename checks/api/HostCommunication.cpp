//===- HostCommunication.cpp - HostCommunicationApis.def, indexed ---------===//

#include "HostCommunication.h"
#include "CudaApiCatalog.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"

namespace cuda_async_lint {

static const llvm::StringMap<HostCommunicationSpec> &catalog() {
  static const llvm::StringMap<HostCommunicationSpec> Specs = [] {
    llvm::StringMap<HostCommunicationSpec> M;
#define HOST_COMMUNICATION(Name, Roles) M[#Name] = {#Name, parseRoles(Roles)};
#include "HostCommunicationApis.def"
    return M;
  }();
  return Specs;
}

const HostCommunicationSpec *
lookupHostCommunication(const clang::CallExpr *Call) {
  return lookupHostCommunication(Call ? Call->getDirectCallee() : nullptr);
}

const HostCommunicationSpec *
lookupHostCommunication(const clang::FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  auto It = catalog().find(FD->getName());
  return It == catalog().end() ? nullptr : &It->second;
}

std::vector<const clang::Expr *>
hostCommunicationArgs(const clang::CallExpr *Call,
                      const HostCommunicationSpec &Spec, ArgRole R) {
  std::vector<const clang::Expr *> Args;
  for (unsigned I = 0; I < Spec.Roles.size() && I < Call->getNumArgs(); ++I)
    if (Spec.Roles[I] == R)
      Args.push_back(Call->getArg(I));
  return Args;
}

} // namespace cuda_async_lint
