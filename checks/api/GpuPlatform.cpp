//===- GpuPlatform.cpp ----------------------------------------------------===//

#include "GpuPlatform.h"
#include "CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace cuda_async_lint {

llvm::ArrayRef<PlatformApis> allPlatforms() {
  // In GpuPlatform's order.
  static const PlatformApis All[] = {
#define GPU_PLATFORM(Id, Registrar, PinnedAllocators, Register, Unregister,    \
                     StreamSynchronize, PerThreadStream, StreamRecord,         \
                     EventRecord)                                              \
  {Registrar,          PinnedAllocators, #Register,     #Unregister,           \
   #StreamSynchronize, #PerThreadStream, #StreamRecord, #EventRecord},
#include "GpuPlatforms.def"
  };
  return All;
}

const PlatformApis &platformApis(GpuPlatform P) {
  return allPlatforms()[static_cast<unsigned>(P)];
}

GpuPlatform platformOf(const clang::ASTContext &Ctx) {
  return Ctx.getLangOpts().HIP ? GpuPlatform::Hip : GpuPlatform::Cuda;
}

GpuPlatform platformOf(const ApiSpec *Api, const clang::ASTContext &Ctx) {
  if (Api && Api->Platform)
    return *Api->Platform;
  return platformOf(Ctx);
}

GpuPlatform platformOf(const clang::CallExpr *Call,
                       const clang::ASTContext &Ctx) {
  if (const auto *Launch =
          llvm::dyn_cast_or_null<clang::CUDAKernelCallExpr>(Call))
    Call = Launch->getConfig();
  return platformOf(lookupApi(Call), Ctx);
}

/// The registration API \p Call is, if catalogued.
static const ApiSpec *registration(const clang::CallExpr *Call) {
  const ApiSpec *Api = lookupApi(Call);
  return Api && Api->Kind == ApiKind::Register ? Api : nullptr;
}

GpuPlatform registrarOf(llvm::ArrayRef<const clang::CallExpr *> By,
                        const clang::ASTContext &Ctx) {
  for (const clang::CallExpr *Call : By)
    if (const ApiSpec *Api = registration(Call))
      return platformOf(Api, Ctx);
  return platformOf(Ctx);
}

std::string unregisterCall(llvm::ArrayRef<const clang::CallExpr *> By,
                           const clang::ASTContext &Ctx) {
  llvm::StringRef Own = platformApis(registrarOf(By, Ctx)).Unregister;
  std::string Name;
  for (const clang::CallExpr *Call : By) {
    const ApiSpec *Api = registration(Call);
    std::string This = Api ? Api->Counterpart.str() : Own.str();
    if (!Name.empty() && Name != This)
      return "";
    Name = This;
  }
  return Name.empty() ? Own.str() : Name;
}

std::string unregisterAdvice(llvm::ArrayRef<const clang::CallExpr *> By,
                             const clang::ASTContext &Ctx) {
  std::string Name = unregisterCall(By, Ctx);
  return Name.empty() ? platformApis(registrarOf(By, Ctx)).Unregister.str()
                      : Name;
}

} // namespace cuda_async_lint
