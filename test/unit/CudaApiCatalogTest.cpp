//===- CudaApiCatalogTest.cpp - The table-driven CUDA API catalog ---------===//

#include "api/CudaApiCatalog.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
#include <set>

using namespace cuda_async_lint;
using namespace clang::ast_matchers;

namespace {

TEST(CudaApiCatalog, NamesAreUniqueUpToTheirParameterCount) {
  // A name repeats only for cuda_runtime.h's C++ overloads, which the
  // parameter count tells apart (CudaRuntimeOverloads.def).
  std::set<std::pair<std::string, size_t>> Seen;
  for (const ApiSpec &S : allApis())
    EXPECT_TRUE(Seen.insert({S.Name.str(), S.Roles.size()}).second)
        << S.Name.str();
}

TEST(CudaApiCatalog, StripsRenamingSuffixes) {
  // cuda.h: #define cuMemcpyHtoDAsync __CUDA_API_PTSZ(cuMemcpyHtoDAsync_v2)
  const ApiSpec *S = lookupApi("cuMemcpyHtoDAsync_v2_ptsz");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->Name, "cuMemcpyHtoDAsync");
  ASSERT_NE(lookupApi("cudaMemcpyAsync_ptsz"), nullptr);
  ASSERT_NE(lookupApi("cuMemAlloc_v2"), nullptr);
  EXPECT_EQ(lookupApi("cudaMemcpyAsync_v7"), nullptr);
  EXPECT_EQ(lookupApi("notACudaCall"), nullptr);
}

TEST(CudaApiCatalog, EveryAsyncOperationOfTheContractHasAStream) {
  // CHECKS.md, "Async operation".
  for (llvm::StringRef Name : {"cudaMemcpyAsync",
                               "cudaMemcpy2DAsync",
                               "cudaMemcpy3DAsync",
                               "cudaMemcpyToSymbolAsync",
                               "cudaMemcpyFromSymbolAsync",
                               "cudaMemcpy2DToArrayAsync",
                               "cudaMemcpy2DFromArrayAsync",
                               "cudaMemcpyPeerAsync",
                               "cudaMemcpyBatchAsync",
                               "cudaMemsetAsync",
                               "cudaMemset2DAsync",
                               "cudaMemset3DAsync",
                               "cuMemcpyHtoDAsync",
                               "cuMemcpyDtoHAsync",
                               "cuMemcpyAsync",
                               "cuMemcpy2DAsync",
                               "cuMemcpy3DAsync",
                               "cuMemsetD8Async",
                               "cuMemsetD16Async",
                               "cuMemsetD32Async",
                               "cuMemsetD2D8Async",
                               "cudaLaunchKernel"}) {
    const ApiSpec *S = lookupApi(Name);
    ASSERT_NE(S, nullptr) << Name.str();
    EXPECT_TRUE(S->argIndex(ArgRole::Stream)) << Name.str();
    if (S->Kind == ApiKind::Copy || S->Kind == ApiKind::Memset)
      EXPECT_EQ(S->Mode, ApiMode::Async) << Name.str();
  }
}

TEST(CudaApiCatalog, RolesFollowTheParameterList) {
  const ApiSpec *Copy = lookupApi("cudaMemcpy2DAsync");
  ASSERT_NE(Copy, nullptr);
  EXPECT_EQ(Copy->argIndex(ArgRole::Dst), 0u);
  EXPECT_EQ(Copy->argIndex(ArgRole::Src), 2u);
  EXPECT_EQ(Copy->argIndex(ArgRole::Kind), 6u);
  EXPECT_EQ(Copy->argIndex(ArgRole::Stream), 7u);
  const ApiSpec *Launch = lookupApi("cuLaunchKernel");
  ASSERT_NE(Launch, nullptr);
  EXPECT_EQ(Launch->argIndex(ArgRole::Stream), 8u);
  EXPECT_EQ(lookupApi("cuMemcpyDtoHAsync")->Direction,
            CopyDirection::DeviceToHost);
}

TEST(CudaApiCatalog, AllocatorsAndReleasersKnowTheirMemory) {
  struct {
    const char *Name;
    MemoryKind Kind;
    bool OutParameter;
  } Cases[] = {{"cudaMallocHost", MemoryKind::Pinned, true},
               {"cudaHostAlloc", MemoryKind::Pinned, true},
               {"cuMemAllocHost", MemoryKind::Pinned, true},
               {"cuMemHostAlloc", MemoryKind::Pinned, true},
               {"cudaMallocManaged", MemoryKind::Managed, true},
               {"cudaMalloc", MemoryKind::Device, true},
               {"cuMemAlloc", MemoryKind::Device, true},
               {"malloc", MemoryKind::Pageable, false},
               {"posix_memalign", MemoryKind::Pageable, true},
               {"mmap", MemoryKind::Pageable, false}};
  for (const auto &C : Cases) {
    const ApiSpec *S = lookupApi(C.Name);
    ASSERT_NE(S, nullptr) << C.Name;
    EXPECT_EQ(S->Kind, ApiKind::Allocate) << C.Name;
    EXPECT_EQ(S->Memory, C.Kind) << C.Name;
    EXPECT_EQ(S->argIndex(ArgRole::Out).has_value(), C.OutParameter) << C.Name;
  }
  EXPECT_EQ(lookupApi("cudaFreeHost")->Memory, MemoryKind::Pinned);
  EXPECT_EQ(lookupApi("free")->Memory, MemoryKind::Pageable);
  EXPECT_EQ(lookupApi("cudaHostRegister")->Kind, ApiKind::Register);
}

TEST(CudaApiCatalog, MatcherNamesIncludeRenamedVariants) {
  // apiCall() matches by this lookup: the headers' renamed spellings are
  // the API they rename.
  auto IsAsyncCopy = [](llvm::StringRef N) {
    const ApiSpec *S = lookupApi(N);
    return S && S->Kind == ApiKind::Copy && S->Mode == ApiMode::Async;
  };
  EXPECT_TRUE(IsAsyncCopy("cudaMemcpyAsync"));
  EXPECT_TRUE(IsAsyncCopy("cudaMemcpyAsync_ptsz"));
  EXPECT_TRUE(IsAsyncCopy("cuMemcpyHtoDAsync_v2_ptsz"));
  EXPECT_FALSE(IsAsyncCopy("cudaMemcpy"));
}

TEST(CudaApiCatalog, HipRowsMirrorCudasAndNameTheirRuntime) {
  // Each HIP call plays the role its CUDA counterpart does.
  struct {
    const char *Hip, *Cuda;
  } Pairs[] = {
      {"hipMemcpyAsync", "cudaMemcpyAsync"},
      {"hipMemcpy2DAsync", "cudaMemcpy2DAsync"},
      {"hipMemsetAsync", "cudaMemsetAsync"},
      {"hipMemcpyHtoDAsync", "cuMemcpyHtoDAsync"},
      {"hipMemcpy", "cudaMemcpy"},
      {"hipHostMalloc", "cudaHostAlloc"},
      {"hipMallocAsync", "cudaMallocAsync"},
      {"hipHostFree", "cudaFreeHost"},
      {"hipFreeAsync", "cudaFreeAsync"},
      {"hipHostRegister", "cudaHostRegister"},
      {"hipStreamCreateWithFlags", "cudaStreamCreateWithFlags"},
      {"hipStreamSynchronize", "cudaStreamSynchronize"},
      {"hipEventRecord", "cudaEventRecord"},
      {"hipStreamWaitEvent", "cudaStreamWaitEvent"},
      {"hipLaunchKernel", "cudaLaunchKernel"},
      {"hipStreamBeginCapture", "cudaStreamBeginCapture"},
      {"hipStreamEndCapture", "cudaStreamEndCapture"},
      {"hipGraphInstantiateWithFlags", "cudaGraphInstantiateWithFlags"},
      {"hipGraphLaunch", "cudaGraphLaunch"},
      {"__hipPushCallConfiguration", "__cudaPushCallConfiguration"}};
  for (const auto &P : Pairs) {
    const ApiSpec *Hip = lookupApi(P.Hip), *Cuda = lookupApi(P.Cuda);
    ASSERT_NE(Hip, nullptr) << P.Hip;
    ASSERT_NE(Cuda, nullptr) << P.Cuda;
    EXPECT_EQ(Hip->Platform, GpuPlatform::Hip) << P.Hip;
    EXPECT_EQ(Cuda->Platform, GpuPlatform::Cuda) << P.Cuda;
    EXPECT_EQ(Hip->Kind, Cuda->Kind) << P.Hip;
    EXPECT_EQ(Hip->Mode, Cuda->Mode) << P.Hip;
    EXPECT_EQ(Hip->Direction, Cuda->Direction) << P.Hip;
    EXPECT_EQ(Hip->Memory, Cuda->Memory) << P.Hip;
    EXPECT_EQ(Hip->Roles, Cuda->Roles) << P.Hip;
    EXPECT_EQ(Hip->ConfiguresLaunch, Cuda->ConfiguresLaunch) << P.Hip;
  }
  EXPECT_EQ(lookupApi("hipHostMalloc")->Counterpart, "hipHostFree");
  EXPECT_EQ(lookupApi("hipMallocHost")->Counterpart, "hipHostFree");
  EXPECT_EQ(lookupApi("hipHostRegister")->Counterpart, "hipHostUnregister");
  EXPECT_FALSE(lookupApi("malloc")->Platform.has_value());
  // ROCm's per-thread spellings (HIP_API_PER_THREAD_DEFAULT_STREAM).
  ASSERT_NE(lookupApi("hipMemcpyAsync_spt"), nullptr);
  EXPECT_EQ(lookupApi("hipMemcpyAsync_spt")->Name, "hipMemcpyAsync");
  // Blocks the host but waits for its own stream only: not catalogued.
  EXPECT_EQ(lookupApi("hipMemcpyWithStream"), nullptr);
}

TEST(CudaApiCatalog, EachPlatformNamesItsOwnAdvice) {
  const PlatformApis &Cuda = platformApis(GpuPlatform::Cuda);
  const PlatformApis &Hip = platformApis(GpuPlatform::Hip);
  EXPECT_EQ(Cuda.PerThreadStream, "cudaStreamPerThread");
  EXPECT_EQ(Hip.PerThreadStream, "hipStreamPerThread");
  EXPECT_EQ(Hip.StreamSynchronize, "hipStreamSynchronize");
  // The advice names catalogued calls of the same runtime.
  for (const PlatformApis *P : {&Cuda, &Hip})
    for (llvm::StringRef Name :
         {P->Register, P->Unregister, P->StreamSynchronize}) {
      const ApiSpec *S = lookupApi(Name);
      ASSERT_NE(S, nullptr) << Name.str();
      EXPECT_EQ(&platformApis(*S->Platform), P) << Name.str();
    }
}

/// The direction and host sides of the copy calls in \p Code.
std::vector<std::vector<bool>> hostSidesOf(llvm::StringRef Code) {
  std::string Decls = R"(
    enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
                          cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice,
                          cudaMemcpyDefault };
    extern "C" int cudaMemcpyAsync(void *, const void *, unsigned long,
                                   cudaMemcpyKind, void *s = 0);
    namespace mylib { int cudaMemcpyAsync(void *, const void *, unsigned long,
                                          cudaMemcpyKind, void *); })";
  auto AST = clang::tooling::buildASTFromCode(Decls + Code.str());
  std::vector<std::vector<bool>> Result;
  for (const BoundNodes &N :
       match(callExpr().bind("c"), AST->getASTContext())) {
    const auto *Call = N.getNodeAs<clang::CallExpr>("c");
    const ApiSpec *S = lookupApi(Call);
    if (!S) {
      Result.push_back({});
      continue;
    }
    std::vector<bool> Sides;
    for (const HostSide &H : hostSides(Call, *S, AST->getASTContext()))
      Sides.push_back(H.IsDestination);
    Result.push_back(Sides);
  }
  return Result;
}

TEST(CudaApiCatalog, HostSidesFollowTheDirection) {
  using Sides = std::vector<std::vector<bool>>;
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h){cudaMemcpyAsync(d,h,4,"
                        "cudaMemcpyHostToDevice);}"),
            (Sides{{false}}));
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h){cudaMemcpyAsync(h,d,4,"
                        "cudaMemcpyDeviceToHost);}"),
            (Sides{{true}}));
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h){cudaMemcpyAsync(d,h,4,"
                        "cudaMemcpyDefault);}"),
            (Sides{{false, true}}));
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h){cudaMemcpyAsync(d,h,4,"
                        "cudaMemcpyDeviceToDevice);}"),
            (Sides{{}}));
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h,cudaMemcpyKind k){"
                        "cudaMemcpyAsync(d,h,4,k);}"),
            (Sides{{}}));
  // Not the CUDA runtime's function: a user's namespace.
  EXPECT_EQ(hostSidesOf("void f(void*d,void*h){mylib::cudaMemcpyAsync(d,h,4,"
                        "cudaMemcpyHostToDevice,0);}"),
            (Sides{{}}));
}

} // namespace
