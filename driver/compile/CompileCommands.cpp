//===- CompileCommands.cpp ------------------------------------------------===//

#include "CompileCommands.h"
#include "CompileCommandsJson.h"
#include "HipccFlags.h"
#include "InputFiles.h"
#include "NvccFlags.h"
#include "clang/Options/Options.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace clang::tooling;

namespace cuda_async_lint {

std::optional<SourceLanguage> languageOfFile(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".C") // Case matters: .C is C++, .c is C.
    return SourceLanguage::Cxx;
  return llvm::StringSwitch<std::optional<SourceLanguage>>(Ext.lower())
      .Cases({".cu", ".cuh"}, SourceLanguage::Cuda)
      .Case(".hip", SourceLanguage::Hip)
      .Case(".c", SourceLanguage::C)
      .Cases({".cc", ".cpp", ".cxx", ".c++", ".cp", ".h", ".hh", ".hpp", ".hxx",
              ".inl"},
             SourceLanguage::Cxx)
      .Default(std::nullopt);
}

static llvm::StringRef languageFlag(SourceLanguage L) {
  switch (L) {
  case SourceLanguage::Cuda:
    return "cuda";
  case SourceLanguage::Hip:
    return "hip";
  case SourceLanguage::Cxx:
    return "c++";
  case SourceLanguage::C:
    return "c";
  }
  llvm_unreachable("unknown SourceLanguage");
}

namespace {

/// With no database and no '--': one default command per file, by extension.
class ExtensionDatabase : public CompilationDatabase {
public:
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override {
    std::optional<SourceLanguage> L = languageOfFile(FilePath);
    std::vector<std::string> Args = {L == SourceLanguage::C ? "clang"
                                                            : "clang++"};
    if (L) {
      Args.push_back("-x");
      Args.push_back(languageFlag(*L).str());
      if (L != SourceLanguage::C)
        Args.push_back("-std=c++17");
    }
    Args.push_back(FilePath.str());
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    return {CompileCommand(Cwd, FilePath, std::move(Args), "")};
  }
};

bool hasArg(const CommandLineArguments &Args, llvm::StringRef Flag) {
  return llvm::is_contained(Args, Flag);
}

bool hasArgPrefix(const CommandLineArguments &Args, llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}

/// The language the command names with -x LANG or -xLANG, if it names one
/// (empty for a -x without its value).
std::optional<llvm::StringRef> namedLanguage(const CommandLineArguments &Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-x")
      return I + 1 < Args.size() ? llvm::StringRef(Args[I + 1])
                                 : llvm::StringRef();
    if (A.size() > 2 && A.starts_with("-x") && !A.starts_with("-xc-"))
      return A.drop_front(2);
  }
  return std::nullopt;
}

bool hasLanguageFlag(const CommandLineArguments &Args) {
  return namedLanguage(Args).has_value();
}

/// Drops what clang's driver does not know (the host compiler's own flags
/// passed through -Xcompiler, leftovers of other compilers): clang would
/// refuse the whole command for one of them.
CommandLineArguments dropUnknownArgs(const CommandLineArguments &Args) {
  if (Args.size() < 2)
    return Args;
  std::vector<const char *> Argv;
  for (size_t I = 1; I < Args.size(); ++I)
    Argv.push_back(Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed = clang::getDriverOptTable().ParseArgs(
      Argv, MissingIndex, MissingCount,
      llvm::opt::Visibility(clang::options::ClangOption));
  std::set<unsigned> Unknown;
  for (const llvm::opt::Arg *A : Parsed.filtered(clang::options::OPT_UNKNOWN))
    Unknown.insert(A->getIndex());
  if (Unknown.empty())
    return Args;
  CommandLineArguments Out = {Args.front()};
  for (size_t I = 1; I < Args.size(); ++I)
    if (!Unknown.count(I - 1))
      Out.push_back(Args[I]);
  return Out;
}

} // namespace

LintCompilationDatabase::LintCompilationDatabase(
    std::unique_ptr<CompilationDatabase> Base)
    : Base(std::move(Base)) {}

llvm::Expected<std::vector<CompileCommand>>
LintCompilationDatabase::commandsFor(llvm::StringRef File) const {
  std::vector<CompileCommand> Commands = Base->getCompileCommands(File);
  if (Commands.empty())
    return llvm::createStringError("no compile command for '%s'",
                                   File.str().c_str());
  for (CompileCommand &C : Commands) {
    if (C.CommandLine.empty())
      continue;
    if (isHipcc(C.CommandLine.front())) {
      C.CommandLine = translateHipccCommand(C.CommandLine, C.Filename);
      continue;
    }
    if (!isNvcc(C.CommandLine.front()))
      continue;
    llvm::Expected<std::vector<std::string>> Clang =
        translateNvccCommand(C.CommandLine, C.Directory);
    if (!Clang)
      return Clang.takeError();
    C.CommandLine = std::move(*Clang);
    // nvcc defines __NVCC__ for every file it compiles, C and C++ too: the
    // host view adds what goes with it (makeHostViewAdjuster).
    if (!C.CommandLine.empty())
      C.CommandLine.insert(C.CommandLine.begin() + 1, "-D__NVCC__");
  }
  return Commands;
}

std::vector<CompileCommand>
LintCompilationDatabase::getCompileCommands(llvm::StringRef File) const {
  llvm::Expected<std::vector<CompileCommand>> Commands = commandsFor(File);
  if (!Commands) {
    llvm::consumeError(Commands.takeError()); // Reported by commandsFor().
    return {};
  }
  return std::move(*Commands);
}

std::vector<std::string> LintCompilationDatabase::getAllFiles() const {
  return Base->getAllFiles();
}

llvm::Expected<std::unique_ptr<LintCompilationDatabase>>
loadCompilationDatabase(llvm::StringRef BuildPath) {
  llvm::SmallString<256> Path(BuildPath);
  if (std::string Problem = whyInaccessible(BuildPath); !Problem.empty()) {
    if (llvm::StringRef(Problem).ends_with(": no such file"))
      return llvm::createStringError("build directory '%s' does not exist",
                                     BuildPath.str().c_str());
    return llvm::createStringError("build directory " + Problem);
  }
  if (llvm::sys::fs::is_directory(Path))
    llvm::sys::path::append(Path, "compile_commands.json");
  if (std::string Problem = whyInaccessible(Path); !Problem.empty()) {
    if (llvm::StringRef(Problem).ends_with(": no such file"))
      return llvm::createStringError("no compile_commands.json in '%s'",
                                     BuildPath.str().c_str());
    return llvm::createStringError(Problem);
  }
  // A FIFO would block the load forever.
  if (!llvm::sys::fs::is_regular_file(Path))
    return llvm::createStringError(
        "'%s' is not a regular file (a FIFO or device cannot be a "
        "compilation database)",
        Path.c_str());
  // clang's loader prints its YAML parser's errors raw and then blames a
  // missing key: the file's shape is checked first, with one clear line,
  // and the loader gets the content that was checked.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Content =
      readCompileCommandsJson(Path);
  if (!Content)
    return Content.takeError();
  std::string Error;
  std::unique_ptr<CompilationDatabase> DB =
      JSONCompilationDatabase::loadFromBuffer(
          (*Content)->getBuffer(), Error, JSONCommandLineSyntax::AutoDetect);
  if (!DB)
    return llvm::createStringError("cannot load '%s': %s", Path.c_str(),
                                   Error.c_str());
  // Files the database does not list take the command of a similar file.
  return std::make_unique<LintCompilationDatabase>(
      inferMissingCompileCommands(std::move(DB)));
}

std::unique_ptr<LintCompilationDatabase>
makeCommandLineDatabase(std::optional<std::vector<std::string>> ExtraArgs) {
  if (!ExtraArgs)
    return std::make_unique<LintCompilationDatabase>(
        std::make_unique<ExtensionDatabase>());
  return std::make_unique<LintCompilationDatabase>(
      std::make_unique<FixedCompilationDatabase>(".", *ExtraArgs));
}

std::optional<SourceLanguage>
offloadLanguage(const std::vector<std::string> &Args, llvm::StringRef File) {
  auto Named = [](llvm::StringRef Language) -> std::optional<SourceLanguage> {
    if (Language == "cuda")
      return SourceLanguage::Cuda;
    if (Language == "hip")
      return SourceLanguage::Hip;
    return std::nullopt;
  };
  if (std::optional<llvm::StringRef> Language = namedLanguage(Args);
      Language && !Language->empty())
    return Named(*Language);
  std::optional<SourceLanguage> L = languageOfFile(File);
  return L == SourceLanguage::Cuda || L == SourceLanguage::Hip ? L
                                                               : std::nullopt;
}

/// Where CUDA 12.8+ keeps thrust, cub and libcu++ (cuda/std/...), which
/// nvcc puts on every command's system include path (nvcc.profile's
/// SYSTEM_INCLUDES); empty for a toolkit without it.
static std::string cccIncludeDir(const CudaHeaders &Cuda) {
  if (Cuda.From != CudaHeaders::Source::Toolkit)
    return "";
  llvm::SmallString<256> Dir(Cuda.Path);
  llvm::sys::path::append(Dir, "include", "cccl");
  return llvm::sys::fs::is_directory(Dir) ? std::string(Dir) : "";
}

/// The host view of a HIP command: clang's HIP mode for the host side only,
/// against the chosen HIP declarations, as hipcc's host pass sees it.
static std::vector<std::string> hipHostView(const CommandLineArguments &Args,
                                            const HipHeaders &Hip) {
  std::vector<std::string> Back;
  if (!hasArg(Args, "--cuda-host-only") &&
      !hasArg(Args, "--offload-host-only") &&
      !hasArg(Args, "--cuda-device-only") &&
      !hasArg(Args, "--offload-device-only") &&
      !hasArg(Args, "--cuda-compile-host-device") &&
      !hasArg(Args, "--offload-host-device"))
    Back.push_back("--offload-host-only");
  // No device code is generated: ROCm's device libraries are never needed.
  if (!hasArg(Args, "-nogpulib"))
    Back.push_back("-nogpulib");
  if (hasArgPrefix(Args, "--rocm-path") || hasArgPrefix(Args, "--hip-path") ||
      hasArg(Args, "-nogpuinc"))
    return Back;
  if (Hip.From == HipHeaders::Source::Rocm) {
    Back.push_back("--rocm-path=" + Hip.Path);
    // ROCm's headers before 6.4 read __AMDGCN_WAVEFRONT_SIZE in host code
    // too; clang 20 stopped predefining it. 64 is what it was.
    if (!hasArgPrefix(Args, "-D__AMDGCN_WAVEFRONT_SIZE"))
      Back.push_back("-D__AMDGCN_WAVEFRONT_SIZE=64");
  } else {
    // clang's HIP wrapper header without ROCm's include directory: the
    // bundled declarations stand in for it.
    Back.insert(Back.end(), {"-nogpuinc", "-isystem", Hip.Path, "-include",
                             "__clang_hip_runtime_wrapper.h"});
  }
  return Back;
}

/// The include directory of ROCm installation \p Root, for C and C++ files
/// that include <hip/hip_runtime_api.h>; empty where the compiler searches it
/// anyway (Debian's /usr): naming a system directory again would reorder it.
static std::string hipIncludeDir(const HipHeaders &Hip) {
  if (Hip.From == HipHeaders::Source::Bundled)
    return Hip.Path;
  llvm::SmallString<256> Dir(Hip.Path);
  llvm::sys::path::append(Dir, "include");
  if (Dir == "/usr/include" || Dir == "/usr/local/include")
    return "";
  return std::string(Dir);
}

/// The host view of a CUDA, C or C++ command: CUDA's host side only, against
/// the chosen CUDA declarations, with nvcc's system includes and host
/// declarations; C and C++ files get the CUDA and HIP headers' directories.
static std::vector<std::string>
cudaHostView(const CommandLineArguments &Args, bool IsCuda,
             const CudaHeaders &Cuda, const std::string &Cccl,
             const std::string &HostShim, const std::string &HipInclude) {
  std::vector<std::string> Back;
  if (IsCuda) {
    // The checks are about host code: parse the host side only, once.
    if (!hasArg(Args, "--cuda-host-only") &&
        !hasArg(Args, "--cuda-device-only") &&
        !hasArg(Args, "--cuda-compile-host-device"))
      Back.push_back("--cuda-host-only");
    Back.push_back("-Wno-unknown-cuda-version");
  }
  if (!hasArgPrefix(Args, "--cuda-path") && !hasArg(Args, "-nocudainc")) {
    bool Toolkit = Cuda.From == CudaHeaders::Source::Toolkit;
    if (IsCuda && Toolkit) {
      Back.push_back("--cuda-path=" + Cuda.Path);
    } else if (IsCuda) {
      // clang's CUDA wrapper headers need a toolkit; the bundled
      // declarations stand in for them, included first as nvcc does.
      Back.insert(Back.end(), {"-nocudainc", "-nocudalib", "-isystem",
                               Cuda.Path, "-include", "cuda_runtime.h"});
    } else {
      Back.push_back("-isystem");
      Back.push_back(Toolkit ? Cuda.Path + "/include" : Cuda.Path);
    }
    if (!Cccl.empty())
      Back.insert(Back.end(), {"-isystem", Cccl});
  }
  // C and C++ files calling the HIP runtime (a HIP project's host-only
  // files) find its declarations too.
  if (!IsCuda && !HipInclude.empty() && HipInclude != Cuda.Path)
    Back.insert(Back.end(), {"-isystem", HipInclude});
  // What nvcc's host pass declares and clang's CUDA headers do not.
  if (IsCuda && !Cuda.BundledDir.empty())
    Back.insert(Back.end(), {"-include", HostShim});
  return Back;
}

/// What nvcc defines for the code it compiles, CUDA, C and C++ files alike,
/// that clang does not (nvcc --dryrun shows them on its host compiler's
/// command line): the version of the toolkit of \p Version, and that
/// nvcc's diagnostic pragmas and device atomic builtins are there. With
/// \p WithNvcc, __NVCC__ too. (__CUDACC__ is clang's too in CUDA files;
/// the host shim gives it nvcc's value. The macros that depend on nvcc's
/// flags come with their translation: NvccFlags.)
static std::vector<std::string>
nvccMacros(const std::optional<CudaVersion> &Version, bool WithNvcc) {
  std::vector<std::string> Out;
  if (WithNvcc)
    Out.push_back("-D__NVCC__");
  if (Version) {
    std::string Major = std::to_string(Version->Major);
    std::string Minor = std::to_string(Version->Minor);
    Out.push_back("-D__CUDACC_VER_MAJOR__=" + Major);
    Out.push_back("-D__CUDACC_VER_MINOR__=" + Minor);
    if (Version->Build)
      Out.push_back("-D__CUDACC_VER_BUILD__=" +
                    std::to_string(*Version->Build));
    Out.push_back("-D__CUDA_API_VER_MAJOR__=" + Major);
    Out.push_back("-D__CUDA_API_VER_MINOR__=" + Minor);
  }
  Out.push_back("-D__NVCC_DIAG_PRAGMA_SUPPORT__=1");
  Out.push_back("-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1");
  return Out;
}

ArgumentsAdjuster makeHostViewAdjuster(const GpuHeaders &Headers) {
  const CudaHeaders &Cuda = Headers.Cuda;
  std::optional<CudaVersion> Version = cudaVersionOf(Cuda);
  std::string Cccl = cccIncludeDir(Cuda);
  llvm::SmallString<256> HostShim(Cuda.BundledDir);
  llvm::sys::path::append(HostShim, "cuda_async_lint_nvcc_host.h");
  std::string HipInclude = hipIncludeDir(Headers.Hip);
  return [Cuda, Hip = Headers.Hip, Cccl, HipInclude, Version,
          HostShim = std::string(HostShim)](const CommandLineArguments &In,
                                            llvm::StringRef File) {
    CommandLineArguments Args = dropUnknownArgs(In);
    if (Args.empty())
      return Args;
    std::vector<std::string> Front;
    // A file whose extension clang does not know (.cuh, .hip) still needs
    // its language named before it.
    if (!hasLanguageFlag(Args))
      if (std::optional<SourceLanguage> L = languageOfFile(File))
        Front = {"-x", languageFlag(*L).str()};
    std::optional<SourceLanguage> Offload = offloadLanguage(Args, File);
    std::vector<std::string> Back =
        Offload == SourceLanguage::Hip
            ? hipHostView(Args, Hip)
            : cudaHostView(Args, Offload == SourceLanguage::Cuda, Cuda, Cccl,
                           HostShim, HipInclude);
    // A CUDA file is read as nvcc reads it, and so is a C or C++ file that
    // nvcc compiles (its command says -D__NVCC__: commandsFor); a command
    // that undefines __NVCC__ says otherwise.
    if (Offload != SourceLanguage::Hip && !hasArgPrefix(Args, "-U__NVCC__")) {
      bool Nvcc = hasArgPrefix(Args, "-D__NVCC__");
      if (Nvcc || Offload == SourceLanguage::Cuda)
        llvm::append_range(Back, nvccMacros(Version, /*WithNvcc=*/!Nvcc));
    }
    Args.insert(Args.begin() + 1, Front.begin(), Front.end());
    Args.insert(Args.begin() + 1 + Front.size(), Back.begin(), Back.end());
    return Args;
  };
}

ArgumentsAdjuster makeCommandAdjuster(const GpuHeaders &Headers,
                                      std::string ResourceDir) {
  return combineAdjusters(
      makeHostViewAdjuster(Headers),
      [ResourceDir](const CommandLineArguments &In, llvm::StringRef) {
        if (In.empty())
          return In;
        CommandLineArguments Args = In;
        // The compiler's warnings are not the tool's business (and -Werror
        // must not fail a parse): only errors are reported.
        std::vector<std::string> Extra = {"-w"};
        // The tool renders clang's errors itself; this keeps clang's own "N
        // errors generated" line (printed only with carets on) off stderr.
        Extra.push_back("-fno-caret-diagnostics");
        if (!hasArgPrefix(Args, "-resource-dir"))
          Extra.push_back("-resource-dir=" + ResourceDir);
        // Every error is seen, whatever limit the build sets: clang's
        // default of 20 ends the parse with a fatal error, which no file
        // survives, where each instantiation of a kernel template repeats
        // an error of device code the tool tolerates (jetson-utils'
        // cudaRGB.cu). The command's own limit is dropped.
        llvm::erase_if(Args, [](const std::string &A) {
          return llvm::StringRef(A).starts_with("-ferror-limit=");
        });
        Extra.push_back("-ferror-limit=0");
        Args.insert(Args.begin() + 1, Extra.begin(), Extra.end());
        return Args;
      });
}

} // namespace cuda_async_lint
