//===- CudaApiCatalog.cpp - CudaApis.def and HipApis.def, indexed --------===//

#include "CudaApiCatalog.h"
#include "ProjectApis.h"
#include "StreamRef.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

namespace cuda_async_lint {

llvm::StringRef memoryKindName(MemoryKind K) {
  switch (K) {
  case MemoryKind::Pageable:
    return "pageable";
  case MemoryKind::Pinned:
    return "pinned";
  case MemoryKind::Registered:
    return "registered";
  case MemoryKind::Managed:
    return "managed";
  case MemoryKind::Device:
    return "device";
  }
  llvm_unreachable("unknown MemoryKind");
}

std::vector<std::optional<ArgRole>> parseRoles(llvm::StringRef Roles) {
  llvm::SmallVector<llvm::StringRef, 12> Words;
  Roles.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<std::optional<ArgRole>> Result;
  for (llvm::StringRef W : Words) {
    std::optional<ArgRole> R = argRoleNamed(W.data(), W.size());
    if (!R && W != "-")
      llvm::report_fatal_error("API catalog: unknown role '" + W + "'");
    Result.push_back(R);
  }
  return Result;
}

static std::optional<GpuPlatform> platformOf(ApiFamily F) {
  switch (F) {
  case ApiFamily::Runtime:
  case ApiFamily::Driver:
  case ApiFamily::CudaLibrary:
    return GpuPlatform::Cuda;
  case ApiFamily::Hip:
  case ApiFamily::HipLibrary:
    return GpuPlatform::Hip;
  case ApiFamily::Libc:
    return std::nullopt;
  }
  llvm_unreachable("unknown ApiFamily");
}

static std::vector<ApiSpec> buildCatalog() {
  std::vector<ApiSpec> Apis;
  auto Add = [&](llvm::StringRef Name, ApiFamily F, ApiKind K, ApiMode M,
                 CopyDirection D, std::optional<MemoryKind> Mem,
                 llvm::StringRef Roles, llvm::StringRef Counterpart = "") {
    Apis.push_back(
        {Name, F, platformOf(F), K, M, D, Mem, parseRoles(Roles), Counterpart});
  };
  // Calls that are neither copies nor memsets return when done and have no
  // direction.
  constexpr auto Blocking = ApiMode::Blocking;
  constexpr auto None = CopyDirection::Descriptor;
#define CUDA_COPY(Name, Family, Mode, Direction, Roles)                        \
  Add(#Name, ApiFamily::Family, ApiKind::Copy, ApiMode::Mode,                  \
      CopyDirection::Direction, std::nullopt, Roles);
#define CUDA_MEMSET(Name, Family, Mode, Roles)                                 \
  Add(#Name, ApiFamily::Family, ApiKind::Memset, ApiMode::Mode, None,          \
      std::nullopt, Roles);
#define CUDA_ALLOC(Name, Family, Memory, ReleasedBy, Roles)                    \
  Add(#Name, ApiFamily::Family, ApiKind::Allocate, Blocking, None,             \
      MemoryKind::Memory, Roles, #ReleasedBy);
#define CUDA_RELEASE(Name, Family, Memory, Mode, Roles)                        \
  Add(#Name, ApiFamily::Family, ApiKind::Release, ApiMode::Mode, None,         \
      MemoryKind::Memory, Roles);
#define CUDA_REGISTER(Name, Family, UnregisteredBy, Roles)                     \
  Add(#Name, ApiFamily::Family, ApiKind::Register, Blocking, None,             \
      MemoryKind::Registered, Roles, #UnregisteredBy);
#define CUDA_UNREGISTER(Name, Family, Roles)                                   \
  Add(#Name, ApiFamily::Family, ApiKind::Unregister, Blocking, None,           \
      std::nullopt, Roles);
#define CUDA_CALL(Name, Family, Kind, Roles)                                   \
  Add(#Name, ApiFamily::Family, ApiKind::Kind, Blocking, None, std::nullopt,   \
      Roles);
#define CUDA_LAUNCH_CONFIGURATION(Name, Family, Roles)                         \
  CUDA_CALL(Name, Family, KernelLaunch, Roles)                                 \
  Apis.back().ConfiguresLaunch = true;
#define CUDA_API_CATALOG_WITH_HIP
#define CUDA_API_CATALOG_WITH_LIBRARIES
#include "CudaApis.def"
#undef CUDA_API_CATALOG_WITH_LIBRARIES
#undef CUDA_API_CATALOG_WITH_HIP
  return Apis;
}

llvm::ArrayRef<ApiSpec> allApis() {
  static const std::vector<ApiSpec> Apis = buildCatalog();
  return Apis;
}

/// Strips the suffixes that cuda.h and cuda_runtime_api.h append through
/// macros: cuMemcpyHtoDAsync -> cuMemcpyHtoDAsync_v2_ptsz, and so on; and
/// ROCm's per-thread one: hipMemcpyAsync -> hipMemcpyAsync_spt.
static constexpr llvm::StringLiteral PerThreadSuffixes[] = {"_ptsz", "_ptds",
                                                            "_spt"};

bool isPerThreadSpelling(llvm::StringRef Name) {
  return llvm::any_of(PerThreadSuffixes, [&](llvm::StringLiteral Suffix) {
    return Name.ends_with(Suffix);
  });
}

static llvm::StringRef baseName(llvm::StringRef Name) {
  for (llvm::StringRef Suffix : PerThreadSuffixes)
    if (Name.consume_back(Suffix))
      break;
  for (llvm::StringRef Suffix : {"_v2", "_v3"})
    if (Name.consume_back(Suffix))
      break;
  return Name;
}

const ApiSpec *lookupApi(llvm::StringRef Name) {
  static const llvm::StringMap<const ApiSpec *> Index = [] {
    llvm::StringMap<const ApiSpec *> M;
    for (const ApiSpec &S : allApis())
      M.try_emplace(S.Name, &S); // The first row of a name (C's).
    return M;
  }();
  auto It = Index.find(baseName(Name));
  return It == Index.end() ? nullptr : It->second;
}

bool isGlobalOrStdFunction(const clang::FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  const clang::DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  return DC->isTranslationUnit() || DC->isStdNamespace();
}

/// The rows after the first of a name (CudaRuntimeOverloads.def), each
/// for the functions of that name with as many parameters as it has roles.
static const ApiSpec *overloadOf(const ApiSpec *First, unsigned NumParams) {
  static const llvm::StringMap<std::vector<const ApiSpec *>> Overloads = [] {
    llvm::StringMap<std::vector<const ApiSpec *>> M;
    llvm::StringMap<bool> Seen;
    for (const ApiSpec &S : allApis())
      if (!Seen.try_emplace(S.Name, true).second)
        M[S.Name].push_back(&S);
    return M;
  }();
  auto It = Overloads.find(First->Name);
  if (It == Overloads.end() || First->Roles.size() == NumParams)
    return First;
  for (const ApiSpec *S : It->second)
    if (S->Roles.size() == NumParams)
      return S;
  return First;
}

const ApiSpec *lookupCatalogApi(const clang::FunctionDecl *FD) {
  if (!isGlobalOrStdFunction(FD))
    return nullptr;
  const ApiSpec *Spec = lookupApi(FD->getName());
  return Spec ? overloadOf(Spec, FD->getNumParams()) : nullptr;
}

const ApiSpec *lookupApi(const clang::FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return nullptr;
  if (const ApiSpec *Project = lookupProjectApi(FD))
    return Project;
  return lookupCatalogApi(FD);
}

const ApiSpec *lookupApi(const clang::CallExpr *Call) {
  return Call ? lookupApi(Call->getDirectCallee()) : nullptr;
}

const clang::VarDecl *runtimeOutArgument(const clang::CallExpr *Call,
                                         unsigned Arg) {
  const clang::FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || Arg >= Call->getNumArgs() ||
      Arg >= FD->getNumParams())
    return nullptr;
  llvm::StringRef Name = FD->getName();
  bool Runtime =
      Name.starts_with("cuda") || Name.starts_with("hip") ||
      (Name.size() > 2 && Name.starts_with("cu") && llvm::isUpper(Name[2]));
  const clang::SourceManager &SM = FD->getASTContext().getSourceManager();
  if (!Runtime || !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return nullptr;
  clang::QualType Pointee = FD->getParamDecl(Arg)->getType()->getPointeeType();
  if (Pointee.isNull() || Pointee.isConstQualified() ||
      !Pointee->isScalarType() || Pointee->isPointerType())
    return nullptr;
  const clang::Expr *Operand = addressOfOperand(Call->getArg(Arg));
  const auto *DRE = llvm::dyn_cast_or_null<clang::DeclRefExpr>(Operand);
  return DRE ? llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()) : nullptr;
}

std::optional<unsigned> ApiSpec::argIndex(ArgRole R) const {
  for (unsigned I = 0; I < Roles.size(); ++I)
    if (Roles[I] == R)
      return I;
  return std::nullopt;
}

const clang::Expr *ApiSpec::arg(const clang::CallExpr *Call, ArgRole R) const {
  std::optional<unsigned> I = argIndex(R);
  if (!I || *I >= Call->getNumArgs())
    return nullptr;
  // A stream or event wrapper passed through its conversion is the stream.
  if (R == ArgRole::Stream || R == ArgRole::Event)
    return handleObject(Call->getArg(*I));
  return Call->getArg(*I);
}

std::optional<CudaErrorCode> cudaErrorCode(const clang::Expr *E) {
  const auto *DRE =
      llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Constant =
      DRE ? llvm::dyn_cast<clang::EnumConstantDecl>(DRE->getDecl()) : nullptr;
  if (!Constant)
    return std::nullopt;
  switch (Constant->getInitVal().getSExtValue()) {
  case int64_t(CudaErrorCode::Success):
    return CudaErrorCode::Success;
  case int64_t(CudaErrorCode::NotReady):
    return CudaErrorCode::NotReady;
  default:
    return std::nullopt;
  }
}

std::optional<ResultTest> resultTest(const clang::Expr *Cond) {
  if (const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(Cond);
      UO && UO->getOpcode() == clang::UO_LNot)
    return ResultTest{UO->getSubExpr(), CudaErrorCode::Success, true};
  const auto *BO = llvm::dyn_cast<clang::BinaryOperator>(Cond);
  if (!BO || !BO->isEqualityOp())
    return ResultTest{Cond, CudaErrorCode::Success, false};
  bool Equal = BO->getOpcode() == clang::BO_EQ;
  if (std::optional<CudaErrorCode> Code = cudaErrorCode(BO->getRHS()))
    return ResultTest{BO->getLHS(), *Code, Equal};
  if (std::optional<CudaErrorCode> Code = cudaErrorCode(BO->getLHS()))
    return ResultTest{BO->getRHS(), *Code, Equal};
  return std::nullopt;
}

const clang::Expr *releasedPointer(const clang::CallExpr *Call,
                                   const ApiSpec &Spec) {
  if (Spec.Kind != ApiKind::Release && Spec.Kind != ApiKind::Allocate)
    return nullptr;
  return Spec.arg(Call, ArgRole::Ptr);
}

std::optional<CopyDirection> copyDirection(const clang::CallExpr *Call,
                                           const ApiSpec &Spec,
                                           const clang::ASTContext &Ctx,
                                           ParameterConstant Parameter) {
  if (Spec.Direction != CopyDirection::KindArg)
    return Spec.Direction;
  const clang::Expr *KindArg = Spec.arg(Call, ArgRole::Kind);
  if (!KindArg)
    return std::nullopt;
  // A defaulted 'kind' (cudaMemcpyToSymbol's) evaluates through its default;
  // a parameter, as every call passes it.
  std::optional<int64_t> Kind = integerConstant(KindArg, Ctx);
  const auto *DRE =
      llvm::dyn_cast<clang::DeclRefExpr>(KindArg->IgnoreParenImpCasts());
  if (!Kind && DRE && Parameter)
    if (const auto *PD = llvm::dyn_cast<clang::ParmVarDecl>(DRE->getDecl()))
      Kind = Parameter(PD);
  if (!Kind)
    return std::nullopt;
  // enum cudaMemcpyKind, as driver_types.h numbers it.
  switch (*Kind) {
  case 0:
    return CopyDirection::HostToHost;
  case 1:
    return CopyDirection::HostToDevice;
  case 2:
    return CopyDirection::DeviceToHost;
  case 3:
    return CopyDirection::DeviceToDevice;
  case 4:
    return CopyDirection::Default;
  default:
    return std::nullopt;
  }
}

std::vector<HostSide> hostSides(const clang::CallExpr *Call,
                                const ApiSpec &Spec,
                                const clang::ASTContext &Ctx,
                                ParameterConstant Parameter) {
  std::vector<HostSide> Sides;
  std::optional<CopyDirection> Dir = copyDirection(Call, Spec, Ctx, Parameter);
  if (!Dir)
    return Sides;
  bool HostDst = false, HostSrc = false;
  switch (*Dir) {
  case CopyDirection::HostToDevice:
    HostSrc = true;
    break;
  case CopyDirection::DeviceToHost:
    HostDst = true;
    break;
  case CopyDirection::HostToHost:
  case CopyDirection::Default:
    HostDst = HostSrc = true;
    break;
  case CopyDirection::DeviceToDevice:
  case CopyDirection::KindArg:
  case CopyDirection::Descriptor:
    break;
  }
  bool ByDirection = *Dir != CopyDirection::Default;
  if (HostSrc)
    if (const clang::Expr *Src = Spec.arg(Call, ArgRole::Src))
      Sides.push_back({Src, /*IsDestination=*/false, ByDirection});
  if (HostDst)
    if (const clang::Expr *Dst = Spec.arg(Call, ArgRole::Dst))
      Sides.push_back({Dst, /*IsDestination=*/true, ByDirection});
  return Sides;
}

std::optional<int64_t> integerConstant(const clang::Expr *E,
                                       const clang::ASTContext &Ctx) {
  if (const auto *Default = llvm::dyn_cast<clang::CXXDefaultArgExpr>(E))
    E = Default->getExpr();
  clang::Expr::EvalResult Result;
  if (E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

const clang::Expr *addressOfOperand(const clang::Expr *E) {
  const auto *UO = llvm::dyn_cast<clang::UnaryOperator>(E->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != clang::UO_AddrOf)
    return nullptr;
  return UO->getSubExpr()->IgnoreParens();
}

} // namespace cuda_async_lint
