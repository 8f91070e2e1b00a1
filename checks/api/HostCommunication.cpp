//===- HostCommunication.cpp - HostCommunicationApis.def, indexed ---------===//

#include "HostCommunication.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

namespace cuda_async_lint {

static HostCommunicationSpec makeSpec(llvm::StringRef Name,
                                      llvm::StringRef Roles) {
  HostCommunicationSpec Spec{Name, {}};
  llvm::SmallVector<llvm::StringRef, 12> Words;
  Roles.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    std::optional<ArgRole> R = argRoleNamed(W.data(), W.size());
    if (!R && W != "-")
      llvm::report_fatal_error("host communication catalog: unknown role '" +
                               W + "'");
    Spec.Roles.push_back(R);
  }
  return Spec;
}

static const llvm::StringMap<HostCommunicationSpec> &catalog() {
  static const llvm::StringMap<HostCommunicationSpec> Specs = [] {
    llvm::StringMap<HostCommunicationSpec> M;
#define HOST_COMMUNICATION(Name, Roles) M[#Name] = makeSpec(#Name, Roles);
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
