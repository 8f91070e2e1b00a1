//===- ApiScan.cpp - Every function a CUDA toolkit's headers declare ------===//
//
// api-scan parses one generated translation unit that includes the toolkit's
// public headers and prints one JSON object per line:
//
//   {"kind":"header","header":"nccl.h","found":true}
//     for each header the unit asked for (found: the toolkit has it);
//   {"kind":"function","name":"cudaMemcpyAsync","header":"cuda_runtime_api.h",
//    ...,"params":[{"name":"dst","type":"void *","canonical":"void *",
//    "levels":1,"base":"void"},...]}
//     for each function declared in a file under a root (the include
//     directory, and any --root), as its first declaration spells it.
//
// It states facts only (names, types, what a pointer points to); which of
// the functions matter is scripts/api-catalog-coverage.py's business
// (docs/api-catalog.md states its rules).
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

llvm::cl::OptionCategory Category("api-scan options");

llvm::cl::opt<std::string>
    CudaPath("cuda-path", llvm::cl::desc("The CUDA toolkit (CUDA mode)"),
             llvm::cl::init("/usr/local/cuda"), llvm::cl::cat(Category));
llvm::cl::opt<std::string>
    IncludeDir("include-dir",
               llvm::cl::desc("The headers' directory (default: "
                              "<cuda-path>/include); headers are named "
                              "relative to it"),
               llvm::cl::cat(Category));
llvm::cl::list<std::string>
    Roots("root",
          llvm::cl::desc("Another file or directory whose declarations are "
                         "listed (a library installed outside the toolkit)"),
          llvm::cl::cat(Category));
llvm::cl::opt<std::string> SourceLanguage(
    "language",
    llvm::cl::desc("cuda (host side of CUDA, the default) or c++ "
                   "(plain C++, no toolkit needed)"),
    llvm::cl::init("cuda"), llvm::cl::cat(Category));
llvm::cl::list<std::string>
    ExtraArgs("extra-arg", llvm::cl::desc("One more compiler argument"),
              llvm::cl::cat(Category));
llvm::cl::list<std::string>
    Headers(llvm::cl::Positional,
            llvm::cl::desc("[header...] (default: the toolkit's public "
                           "headers)"),
            llvm::cl::cat(Category));

/// The toolkit's public headers the coverage rules are about. Each one is
/// included only where the toolkit has it (__has_include), so one list
/// serves every toolkit; the "header" records say which were found.
const char *const ToolkitHeaders[] = {"cuda_runtime_api.h",
                                      "cuda.h",
                                      "cublas_v2.h",
                                      "cublasLt.h",
                                      "cublasXt.h",
                                      "cusparse.h",
                                      "cufft.h",
                                      "cufftXt.h",
                                      "curand.h",
                                      "cusolverDn.h",
                                      "cusolverSp.h",
                                      "cusolverRf.h",
                                      "cusolverMg.h",
                                      "npp.h",
                                      "nvjpeg.h",
                                      "nccl.h",
                                      "cub/cub.cuh",
                                      "thrust/execution_policy.h",
                                      "thrust/system/cuda/execution_policy.h",
                                      "thrust/system/cuda/memory.h",
                                      "thrust/device_vector.h",
                                      "thrust/host_vector.h"};

/// The real path, so that a root reached through a symbolic link
/// (/usr/local/cuda -> cuda-13.0) still contains its files.
std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

/// A file or directory whose declarations are listed; the header is named
/// relative to Base (the directory itself, or a file's directory).
struct Root {
  std::string Path, Base;
};

/// How many pointers (or references, or arrays) a type goes through, and
/// what is at the bottom.
struct Indirection {
  unsigned Levels = 0;
  bool Reference = false;
  const char *Base = "other";
};

Indirection classify(QualType Type) {
  Indirection Result;
  Type = Type.getCanonicalType();
  if (Type->isReferenceType()) {
    Result.Reference = true;
    ++Result.Levels;
    Type = Type->getPointeeType().getCanonicalType();
  }
  while (true) {
    if (Type->isPointerType() || Type->isReferenceType())
      Type = Type->getPointeeType().getCanonicalType();
    else if (const auto *Array = Type->getAsArrayTypeUnsafe())
      Type = Array->getElementType().getCanonicalType();
    else
      break;
    ++Result.Levels;
  }
  if (Type->isDependentType())
    Result.Base = "dependent"; // a template parameter: data of any type
  else if (Type->isVoidType())
    Result.Base = "void";
  else if (Type->isSpecificBuiltinType(BuiltinType::Char_S) ||
           Type->isSpecificBuiltinType(BuiltinType::Char_U))
    Result.Base = "char"; // plain char: text, not bytes of data
  else if (Type->isEnumeralType())
    Result.Base = "enum";
  else if (Type->isArithmeticType())
    Result.Base = "arithmetic";
  else if (Type->isFunctionType())
    Result.Base = "function";
  else if (Type->isIncompleteType())
    Result.Base = "opaque"; // a struct declared, never defined: a handle
  else if (Type->isRecordType())
    Result.Base = "record";
  return Result;
}

/// Where the unit's own #include directives found their headers.
class FoundHeaders : public PPCallbacks {
public:
  FoundHeaders(const SourceManager &SM, std::set<std::string> &Found)
      : SM(SM), Found(Found) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File && SM.isInMainFile(HashLoc))
      Found.insert(FileName.str());
  }

private:
  const SourceManager &SM;
  std::set<std::string> &Found;
};

class FunctionPrinter : public RecursiveASTVisitor<FunctionPrinter> {
public:
  FunctionPrinter(ASTContext &Context, const std::vector<Root> &Roots)
      : SM(Context.getSourceManager()), Roots(Roots),
        Policy(Context.getPrintingPolicy()) {
    Policy.SuppressTagKeyword = true;
  }

  bool VisitFunctionDecl(FunctionDecl *Function) {
    // One record per function, where it is first declared; a template's
    // pattern, not its specializations; no compiler-made members.
    if (Function->isImplicit() || Function != Function->getFirstDecl() ||
        isa<CXXDeductionGuideDecl>(Function) ||
        Function->getTemplatedKind() ==
            FunctionDecl::TK_FunctionTemplateSpecialization ||
        Function->getTemplatedKind() ==
            FunctionDecl::TK_DependentFunctionTemplateSpecialization ||
        Function->getTemplatedKind() == FunctionDecl::TK_MemberSpecialization)
      return true;
    std::string Header = headerOf(Function->getLocation());
    if (!Header.empty())
      print(*Function, Header);
    return true;
  }

private:
  /// The declaration's file relative to the root that holds it, or "".
  std::string headerOf(SourceLocation Loc) {
    Loc = SM.getFileLoc(Loc);
    FileID File = SM.getFileID(Loc);
    auto Cached = HeaderCache.find(File);
    if (Cached != HeaderCache.end())
      return Cached->second;
    std::string &Header = HeaderCache[File];
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return Header;
    std::string Path = realPath(Entry->getName());
    for (const Root &R : Roots) {
      if (Path != R.Path && !llvm::StringRef(Path).starts_with(R.Path + "/"))
        continue;
      Header = Path.substr(R.Base.size() + 1);
      break;
    }
    return Header;
  }

  /// The side of a CUDA program that can call the function.
  static const char *cudaSide(const FunctionDecl &Function) {
    if (Function.hasAttr<CUDAGlobalAttr>())
      return "global";
    bool Device = Function.hasAttr<CUDADeviceAttr>();
    bool Host = Function.hasAttr<CUDAHostAttr>();
    if (Device && Host)
      return "host device";
    return Device ? "device" : "host";
  }

  void printType(llvm::json::OStream &J, QualType Written, QualType Type) {
    J.attribute("type", Written.getAsString(Policy));
    J.attribute("canonical", Type.getCanonicalType().getAsString(Policy));
    Indirection Kind = classify(Type);
    J.attribute("levels", Kind.Levels);
    if (Kind.Reference)
      J.attribute("reference", true);
    J.attribute("base", Kind.Base);
  }

  void print(const FunctionDecl &Function, const std::string &Header) {
    llvm::json::OStream J(llvm::outs());
    J.object([&] {
      J.attribute("kind", "function");
      J.attribute("name", Function.getQualifiedNameAsString());
      J.attribute("header", Header);
      J.attribute("line", SM.getSpellingLineNumber(
                              SM.getFileLoc(Function.getLocation())));
      J.attribute("cuda", cudaSide(Function));
      if (const auto *Method = dyn_cast<CXXMethodDecl>(&Function)) {
        J.attribute("class", Method->getParent()->getQualifiedNameAsString());
        J.attribute("static", Method->isStatic());
      }
      if (Function.getDescribedFunctionTemplate() ||
          Function.isDependentContext())
        J.attribute("template", true);
      if (Function.isVariadic())
        J.attribute("variadic", true);
      if (Function.hasAttr<DeprecatedAttr>() ||
          Function.hasAttr<UnavailableAttr>())
        J.attribute("deprecated", true);
      J.attributeObject("return", [&] {
        printType(J, Function.getDeclaredReturnType(),
                  Function.getReturnType());
      });
      J.attributeArray("params", [&] {
        for (const ParmVarDecl *Param : Function.parameters())
          J.object([&] {
            J.attribute("name", Param->getName());
            printType(J, Param->getOriginalType(), Param->getType());
          });
      });
    });
    llvm::outs() << "\n";
  }

  const SourceManager &SM;
  const std::vector<Root> &Roots;
  PrintingPolicy Policy;
  llvm::DenseMap<FileID, std::string> HeaderCache;
};

class ScanConsumer : public ASTConsumer {
public:
  explicit ScanConsumer(const std::vector<Root> &Roots) : Roots(Roots) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    FunctionPrinter(Context, Roots)
        .TraverseDecl(Context.getTranslationUnitDecl());
  }

private:
  const std::vector<Root> &Roots;
};

class ScanAction : public ASTFrontendAction {
public:
  ScanAction(const std::vector<Root> &Roots, std::set<std::string> &Found)
      : Roots(Roots), Found(Found) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<FoundHeaders>(CI.getSourceManager(), Found));
    return std::make_unique<ScanConsumer>(Roots);
  }

private:
  const std::vector<Root> &Roots;
  std::set<std::string> &Found;
};

} // namespace

int main(int argc, const char **argv) {
  llvm::cl::HideUnrelatedOptions(Category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "api-scan: every function the CUDA toolkit's headers declare, as JSON "
      "lines\n");
  std::string Include = IncludeDir.empty() ? CudaPath + "/include" : IncludeDir;
  if (!llvm::sys::fs::is_directory(Include)) {
    llvm::errs() << "api-scan: no such directory: " << Include << "\n";
    return 2;
  }

  std::vector<std::string> Wanted(Headers.begin(), Headers.end());
  if (Wanted.empty())
    Wanted.assign(std::begin(ToolkitHeaders), std::end(ToolkitHeaders));
  std::string Code;
  for (const std::string &Header : Wanted)
    Code += "#if __has_include(<" + Header + ">)\n#include <" + Header +
            ">\n#endif\n";

  std::vector<std::string> RootPaths = {Include};
  RootPaths.insert(RootPaths.end(), Roots.begin(), Roots.end());
  std::vector<Root> RootList;
  for (const std::string &Path : RootPaths) {
    std::string Real = realPath(Path);
    std::string Base = llvm::sys::fs::is_directory(Real)
                           ? Real
                           : llvm::sys::path::parent_path(Real).str();
    RootList.push_back({Real, Base});
  }

  std::vector<std::string> Args;
  if (SourceLanguage == "cuda") {
    // The host side of a CUDA unit, as the analyzer parses one; CCCL (CUB,
    // Thrust, libcu++) lives in include/cccl from CUDA 13 on.
    Args = {"-x",
            "cuda",
            "--cuda-host-only",
            "-nocudalib",
            "--cuda-path=" + CudaPath,
            "-Wno-unknown-cuda-version",
            "-isystem",
            Include + "/cccl"};
  } else if (SourceLanguage == "c++") {
    Args = {"-x", "c++"};
  } else {
    llvm::errs() << "api-scan: --language is cuda or c++\n";
    return 2;
  }
  Args.insert(Args.end(), {"-std=c++17", "-w", "-isystem", Include,
                           "-resource-dir=" API_SCAN_RESOURCE_DIR});
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());

  std::set<std::string> Found;
  bool Parsed = tooling::runToolOnCodeWithArgs(
      std::make_unique<ScanAction>(RootList, Found), Code, Args,
      SourceLanguage == "cuda" ? "api-scan.cu" : "api-scan.cpp", "api-scan");
  for (const std::string &Header : Wanted) {
    llvm::json::OStream J(llvm::outs());
    J.object([&] {
      J.attribute("kind", "header");
      J.attribute("header", Header);
      J.attribute("found", Found.count(Header) != 0);
    });
    llvm::outs() << "\n";
  }
  if (!Parsed) {
    // A unit that does not parse may have lost declarations: no partial
    // list passes for a complete one.
    llvm::errs() << "api-scan: the headers did not parse\n";
    return 1;
  }
  return 0;
}
