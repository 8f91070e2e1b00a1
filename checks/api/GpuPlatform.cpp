//===- GpuPlatform.cpp ----------------------------------------------------===//

#include "GpuPlatform.h"
#include "CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace cuda_async_lint {

llvm::ArrayRef<PlatformApis> allPlatforms() {
  // In GpuPlatform's order.
  static const PlatformApis All[] = {
#define GPU_PLATFORM(Id, Name, Registrar, PinnedAllocators, Register,          \
                     Unregister, StreamSynchronize, PerThreadStream,           \
                     StreamRecord, EventRecord)                                \
  {Name,        Registrar,          PinnedAllocators, #Register,               \
   #Unregister, #StreamSynchronize, #PerThreadStream, #StreamRecord,           \
   #EventRecord},
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

} // namespace cuda_async_lint
