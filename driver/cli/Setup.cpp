//===- Setup.cpp - What the modes read before they run --------------------===//

#include "Setup.h"
#include "Config.h"
#include "compile/CudaToolkit.h"
#include "compile/InputFiles.h"
#include "compile/RocmInstallation.h"
#include "report/SourceRoot.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace cuda_async_lint {
namespace {

/// The declarations installed beside the executable:
/// <prefix>/share/cuda-async-lint/include.
std::string bundledDeclarations(StringRef Executable) {
  SmallString<256> Dir(
      sys::path::parent_path(sys::path::parent_path(Executable)));
  sys::path::append(Dir, "share", "cuda-async-lint", "include");
  return std::string(Dir);
}

/// \p File made absolute, without '.' and '..': how the run names files.
std::string absolutePath(StringRef File) {
  SmallString<256> Path(File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

/// Checks one input file; an empty string means it can be analysed.
std::string checkInput(StringRef File, bool HasDatabase,
                       const std::optional<std::vector<std::string>> &Extra) {
  if (std::string Problem = whyNotReadableFile(File); !Problem.empty())
    return Problem;
  bool NamesLanguage = Extra && llvm::any_of(*Extra, [](const std::string &A) {
                         return StringRef(A).starts_with("-x");
                       });
  if (!HasDatabase && !NamesLanguage && !languageOfFile(File))
    return "'" + File.str() +
           "' is not a C, C++, CUDA or HIP source file (to analyse it "
           "anyway, name its language: -- -x cuda, -- -x hip)";
  return "";
}

} // namespace

Expected<Configuration> configurationOf(const Invocation &I) {
  return Configuration::fromFlags(I.Configuration);
}

Expected<GpuHeaders> gpuHeadersOf(const Invocation &I) {
  std::string Bundled = bundledDeclarations(I.Executable);
  Expected<CudaHeaders> Cuda =
      chooseCudaHeaders(I.CudaPath, I.CudaPathEnv, I.UseBundledCuda, Bundled);
  if (!Cuda)
    return Cuda.takeError();
  if (Cuda->From == CudaHeaders::Source::Bundled &&
      !sys::fs::exists(Cuda->Path + "/cuda_runtime.h"))
    return createStringError("the bundled CUDA declarations are missing from "
                             "'" +
                             Cuda->Path + "'; reinstall cuda-async-lint");
  Expected<HipHeaders> Hip = chooseHipHeaders(
      {I.HipPath, I.RocmPathEnv, I.HipPathEnv, I.UseBundledHip, Bundled});
  if (!Hip)
    return Hip.takeError();
  if (Hip->From == HipHeaders::Source::Bundled &&
      !sys::fs::exists(Hip->Path + "/hip/hip_runtime.h"))
    return createStringError("the bundled HIP declarations are missing from "
                             "'" +
                             Hip->Path + "'; reinstall cuda-async-lint");
  if (I.Verbose) {
    errs() << "cuda-async-lint: CUDA declarations: "
           << (Cuda->From == CudaHeaders::Source::Toolkit ? "toolkit "
                                                          : "bundled ")
           << Cuda->Path << " (" << Cuda->Reason << ")\n";
    errs() << "cuda-async-lint: HIP declarations: "
           << (Hip->From == HipHeaders::Source::Rocm ? "ROCm " : "bundled ")
           << Hip->Path << " (" << Hip->Reason << ")\n";
  }
  return GpuHeaders{*Cuda, *Hip};
}

Expected<clang::tidy::ClangTidyOptions>
optionsOfFirstFile(const Invocation &I) {
  Expected<Configuration> Config = configurationOf(I);
  if (!Config)
    return Config.takeError();
  SmallString<256> Probe(I.Files.empty() ? "dummy"
                                         : StringRef(I.Files.front()));
  sys::fs::make_absolute(Probe);
  std::vector<std::string> Warnings;
  if (Error E = Config->checkFiles({std::string(Probe)}, Warnings))
    return std::move(E);
  return Config->optionsFor(Probe);
}

DocsLinks docsLinksOf(const Invocation &I) {
  DocsLinks Links =
      chooseDocsLinks(I.DocsUrl, CUDA_ASYNC_LINT_DOCS_URL, I.Executable);
  Links.Homepage = CUDA_ASYNC_LINT_HOMEPAGE;
  return Links;
}

std::vector<std::string>
sourceFilesOf(const LintCompilationDatabase &Database) {
  std::vector<std::string> Out;
  for (const std::string &F : Database.getAllFiles())
    if (languageOfFile(F))
      Out.push_back(absolutePath(F));
  llvm::sort(Out);
  Out.erase(llvm::unique(Out), Out.end());
  return Out;
}

Expected<RunInputs> inputsOf(const Invocation &I, const Configuration &Config) {
  RunInputs In;
  bool HasDatabase = !I.BuildPath.empty();
  if (HasDatabase) {
    auto Loaded = loadCompilationDatabase(I.BuildPath);
    if (!Loaded)
      return Loaded.takeError();
    In.Database = std::move(*Loaded);
  } else {
    In.Database = makeCommandLineDatabase(I.ExtraArgs);
  }

  std::vector<std::string> Inputs = I.Files;
  if (Inputs.empty() && !HasDatabase)
    return createStringError("no input files (give FILES..., or -p "
                             "BUILD_DIR to analyse a compilation database)");
  if (Inputs.empty()) {
    Inputs = sourceFilesOf(*In.Database);
    if (Inputs.empty())
      return createStringError("the compilation database in '" + I.BuildPath +
                               "' lists no C, C++, CUDA or HIP files");
  }

  // Files named on the command line are checked here: a typo is a usage
  // error. A file the database lists but that is missing or unreadable (not
  // generated yet, say) fails alone, in the analysis, like any bad entry.
  bool Named = !I.Files.empty();
  Error Problems = Error::success();
  std::set<std::string> Seen;
  for (const std::string &F : Inputs) {
    if (std::string Problem =
            Named ? checkInput(F, HasDatabase, I.ExtraArgs) : "";
        !Problem.empty()) {
      Problems = joinErrors(std::move(Problems), createStringError(Problem));
      continue;
    }
    std::string Path = absolutePath(F);
    if (Named && HasDatabase)
      if (auto Commands = In.Database->commandsFor(Path); !Commands) {
        Problems = joinErrors(std::move(Problems), Commands.takeError());
        continue;
      }
    if (Seen.insert(Path).second)
      In.Files.push_back(Path);
  }
  if (Problems)
    return std::move(Problems);

  // Every configuration file the files use parses, and some check is on.
  std::vector<std::string> ConfigWarnings;
  if (Error E = Config.checkFiles(In.Files, ConfigWarnings))
    return std::move(E);
  for (const std::string &W : ConfigWarnings)
    errs() << "cuda-async-lint: warning: " << W << "\n";
  if (llvm::none_of(In.Files, [&](const std::string &F) {
        return !enabledChecks(Config.optionsFor(F)).empty();
      }))
    return createStringError("no checks enabled (see --checks, --config and "
                             "the .clang-tidy files; --list-checks shows "
                             "them)");
  // Left out by --exclude or the configuration: neither analysed nor
  // summarized, and counted in the report.
  Expected<std::string> Root =
      chooseSourceRoot(I.SourceRoot, In.Files, I.WorkingDirectory);
  if (!Root)
    return Root.takeError();
  Expected<Exclusions> Excludes = Exclusions::make(I.Exclude, *Root);
  if (!Excludes)
    return Excludes.takeError();
  In.Excludes = std::make_shared<Exclusions>(std::move(*Excludes));
  if (Error E = In.Excludes->removeExcluded(In.Files, Config, &In.Excluded))
    return std::move(E);
  if (In.Files.empty())
    return createStringError("every input file is excluded (--exclude, "
                             "and the configuration's " +
                             std::string(ExcludeOption) + ")");
  // The report follows the files' paths, not the order they were named in
  // or the database lists them in.
  llvm::sort(In.Files);
  llvm::sort(In.Excluded);
  return In;
}

Expected<ParseSetup> parseSetupOf(const Invocation &I, bool WithInputs) {
  Expected<Configuration> Config = configurationOf(I);
  if (!Config)
    return Config.takeError();
  Expected<GpuHeaders> Headers = gpuHeadersOf(I);
  if (!Headers)
    return Headers.takeError();
  RunInputs In;
  if (WithInputs) {
    Expected<RunInputs> Given = inputsOf(I, *Config);
    if (!Given)
      return Given.takeError();
    In = std::move(*Given);
  }
  return ParseSetup{std::move(*Config), *Headers, std::move(In)};
}

} // namespace cuda_async_lint
