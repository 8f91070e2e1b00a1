//===- NvccFlags.cpp - nvcc flag translation ------------------------------===//

#include "NvccFlags.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace cuda_async_lint {

namespace {

/// What to do with one nvcc option.
enum class Action {
  /// Device code generation or nvcc's own tooling: no meaning for host-side
  /// analysis. The option takes no value.
  Drop,
  /// Like Drop, for an option that takes a value ('-arch sm_90',
  /// '-arch=sm_90').
  DropWithValue,
  /// Options to pass to the host compiler, comma separated.
  HostCompiler,
  /// nvcc long spellings of ordinary compiler options.
  IncludePath,
  SystemIncludePath,
  Define,
  Undefine,
  PreInclude,
  OutputFile,
  Standard,
  /// '-x cu' is '-x cuda'.
  Language,
  /// '--default-stream per-thread' is CUDA_API_PER_THREAD_DEFAULT_STREAM.
  DefaultStream,
  /// --options-file/-optf: more options, read from a file.
  OptionsFile,
  /// '-rdc=true' is clang's -fgpu-rdc: device code may launch kernels
  /// (dynamic parallelism) and call functions of other files.
  RelocatableDeviceCode,
  /// '-dc' is '-rdc=true -c'.
  DeviceCompile,
  /// '-noeh' is clang's -fno-exceptions.
  NoExceptions,
  /// '--compile' is '-c'.
  CompileOnly,
  /// Device code generation that nvcc tells a CUDA file's code of, with a
  /// macro: '-G' (__CUDACC_DEBUG__), '--extended-lambda'
  /// (__CUDACC_EXTENDED_LAMBDA__), '--expt-relaxed-constexpr'
  /// (__CUDACC_RELAXED_CONSTEXPR__).
  DeviceDebug,
  ExtendedLambda,
  RelaxedConstexpr,
};

const llvm::StringMap<Action> &nvccOptions() {
  static const llvm::StringMap<Action> Options = {
      // Device code generation.
      {"-gencode", Action::DropWithValue},
      {"--generate-code", Action::DropWithValue},
      {"-arch", Action::DropWithValue},
      {"--gpu-architecture", Action::DropWithValue},
      {"-code", Action::DropWithValue},
      {"--gpu-code", Action::DropWithValue},
      {"-rdc", Action::RelocatableDeviceCode},
      {"--relocatable-device-code", Action::RelocatableDeviceCode},
      {"-maxrregcount", Action::DropWithValue},
      {"--maxrregcount", Action::DropWithValue},
      {"-ftz", Action::DropWithValue},
      {"--ftz", Action::DropWithValue},
      {"-prec-div", Action::DropWithValue},
      {"--prec-div", Action::DropWithValue},
      {"-prec-sqrt", Action::DropWithValue},
      {"--prec-sqrt", Action::DropWithValue},
      {"-fmad", Action::DropWithValue},
      {"--fmad", Action::DropWithValue},
      {"-dc", Action::DeviceCompile},
      {"--device-c", Action::DeviceCompile},
      {"-dw", Action::Drop},
      {"--device-w", Action::Drop},
      {"-dlink", Action::Drop},
      {"--device-link", Action::Drop},
      {"-G", Action::DeviceDebug},
      {"--device-debug", Action::DeviceDebug},
      {"-lineinfo", Action::Drop},
      {"--generate-line-info", Action::Drop},
      {"-use_fast_math", Action::Drop},
      {"--use_fast_math", Action::Drop},
      {"-extended-lambda", Action::ExtendedLambda},
      {"--extended-lambda", Action::ExtendedLambda},
      {"-expt-extended-lambda", Action::ExtendedLambda},
      {"--expt-extended-lambda", Action::ExtendedLambda},
      {"-expt-relaxed-constexpr", Action::RelaxedConstexpr},
      {"--expt-relaxed-constexpr", Action::RelaxedConstexpr},
      {"-restrict", Action::Drop},
      {"--restrict", Action::Drop},
      {"-static-global-template-stub", Action::DropWithValue},
      {"--static-global-template-stub", Action::DropWithValue},
      // The other tools nvcc drives, and nvcc itself.
      {"-ccbin", Action::DropWithValue},
      {"--compiler-bindir", Action::DropWithValue},
      {"-Xptxas", Action::DropWithValue},
      {"--ptxas-options", Action::DropWithValue},
      {"-Xnvlink", Action::DropWithValue},
      {"--nvlink-options", Action::DropWithValue},
      {"-Xfatbin", Action::DropWithValue},
      {"--fatbin-options", Action::DropWithValue},
      {"-Xcudafe", Action::DropWithValue},
      {"-Xarchive", Action::DropWithValue},
      {"--archive-options", Action::DropWithValue},
      {"-cudart", Action::DropWithValue},
      {"--cudart", Action::DropWithValue},
      {"-cudadevrt", Action::DropWithValue},
      {"--cudadevrt", Action::DropWithValue},
      {"-t", Action::DropWithValue},
      {"--threads", Action::DropWithValue},
      {"-split-compile", Action::DropWithValue},
      {"--split-compile", Action::DropWithValue},
      {"-diag-suppress", Action::DropWithValue},
      {"--diag-suppress", Action::DropWithValue},
      {"-diag-warn", Action::DropWithValue},
      {"--diag-warn", Action::DropWithValue},
      {"-diag-error", Action::DropWithValue},
      {"--diag-error", Action::DropWithValue},
      {"-odir", Action::DropWithValue},
      {"--output-directory", Action::DropWithValue},
      {"--dependency-output", Action::DropWithValue},
      {"--Werror", Action::DropWithValue},
      {"-forward-unknown-to-host-compiler", Action::Drop},
      {"--forward-unknown-to-host-compiler", Action::Drop},
      {"-forward-unknown-opts", Action::Drop},
      {"--forward-unknown-opts", Action::Drop},
      {"-keep", Action::Drop},
      {"--keep", Action::Drop},
      {"-res-usage", Action::Drop},
      {"--resource-usage", Action::Drop},
      {"-Wno-deprecated-gpu-targets", Action::Drop},
      {"--Wno-deprecated-gpu-targets", Action::Drop},
      {"-Wext-lambda-captures-this", Action::Drop},
      {"--display-error-number", Action::Drop},
      {"--no-display-error-number", Action::Drop},
      {"-src-in-ptx", Action::Drop},
      {"--source-in-ptx", Action::Drop},
      {"-cuda", Action::Drop},
      {"-ptx", Action::Drop},
      {"-cubin", Action::Drop},
      {"-fatbin", Action::Drop},
      {"-m64", Action::Drop},
      {"--machine", Action::DropWithValue},
      {"-m", Action::DropWithValue},
      // The rest of nvcc 13's options (nvcc --help) that clang does not
      // share: each with its value, so no value becomes a stray input.
      {"--library", Action::DropWithValue},
      {"--library-path", Action::DropWithValue},
      {"-arbin", Action::DropWithValue},
      {"--archiver-binary", Action::DropWithValue},
      {"-ldir", Action::DropWithValue},
      {"--libdevice-directory", Action::DropWithValue},
      {"-target-dir", Action::DropWithValue},
      {"--target-directory", Action::DropWithValue},
      {"-opt-info", Action::DropWithValue},
      {"--optimization-info", Action::DropWithValue},
      {"-Ofc", Action::DropWithValue},
      {"--Ofast-compile", Action::DropWithValue},
      {"-dopt", Action::DropWithValue},
      {"--dopt", Action::DropWithValue},
      {"-ftemplate-backtrace-limit", Action::DropWithValue},
      {"--ftemplate-backtrace-limit", Action::DropWithValue},
      {"-ftemplate-depth", Action::DropWithValue},
      {"--ftemplate-depth", Action::DropWithValue},
      {"-Xlinker", Action::DropWithValue},
      {"--linker-options", Action::DropWithValue},
      {"-device-entity-has-hidden-visibility", Action::DropWithValue},
      {"--device-entity-has-hidden-visibility", Action::DropWithValue},
      {"-split-compile-extended", Action::DropWithValue},
      {"--split-compile-extended", Action::DropWithValue},
      {"-fdevice-time-trace", Action::DropWithValue},
      {"--fdevice-time-trace", Action::DropWithValue},
      {"-keep-dir", Action::DropWithValue},
      {"--keep-dir", Action::DropWithValue},
      {"-time", Action::DropWithValue},
      {"--time", Action::DropWithValue},
      {"-run-args", Action::DropWithValue},
      {"--run-args", Action::DropWithValue},
      {"-idp", Action::DropWithValue},
      {"--input-drive-prefix", Action::DropWithValue},
      {"-ddp", Action::DropWithValue},
      {"--dependency-drive-prefix", Action::DropWithValue},
      {"-dp", Action::DropWithValue},
      {"--drive-prefix", Action::DropWithValue},
      {"--dependency-target-name", Action::DropWithValue},
      {"-e", Action::DropWithValue},
      {"--entries", Action::DropWithValue},
      {"-Werror", Action::DropWithValue},
      {"-hls", Action::DropWithValue},
      {"--host-linker-script", Action::DropWithValue},
      {"-brief-diag", Action::DropWithValue},
      {"--brief-diagnostics", Action::DropWithValue},
      {"-jtd", Action::DropWithValue},
      {"--jump-table-density", Action::DropWithValue},
      {"-device-stack-protector", Action::DropWithValue},
      {"--device-stack-protector", Action::DropWithValue},
      {"-frandom-seed", Action::DropWithValue},
      {"--frandom-seed", Action::DropWithValue},
      {"-sanitize", Action::DropWithValue},
      {"--sanitize", Action::DropWithValue},
      {"-compress-mode", Action::DropWithValue},
      {"--compress-mode", Action::DropWithValue},
      {"-objtemp", Action::Drop},
      {"--objdir-as-tempdir", Action::Drop},
      {"-allow-unsupported-compiler", Action::Drop},
      {"--allow-unsupported-compiler", Action::Drop},
      {"-use-local-env", Action::Drop},
      {"--use-local-env", Action::Drop},
      {"-force-cl-env-setup", Action::Drop},
      {"--force-cl-env-setup", Action::Drop},
      {"--profile", Action::Drop},
      {"-dlto", Action::Drop},
      {"--dlink-time-opt", Action::Drop},
      {"-lto", Action::Drop},
      {"--lto", Action::Drop},
      {"-gen-opt-lto", Action::Drop},
      {"--gen-opt-lto", Action::Drop},
      {"-nohdinitlist", Action::Drop},
      {"--no-host-device-initializer-list", Action::Drop},
      {"-nohdmoveforward", Action::Drop},
      {"--no-host-device-move-forward", Action::Drop},
      {"-forward-unknown-to-host-linker", Action::Drop},
      {"--forward-unknown-to-host-linker", Action::Drop},
      {"-noprof", Action::Drop},
      {"--dont-use-profile", Action::Drop},
      {"-dryrun", Action::Drop},
      {"--dryrun", Action::Drop},
      {"-fdevice-syntax-only", Action::Drop},
      {"--fdevice-syntax-only", Action::Drop},
      {"-save-temps", Action::Drop},
      {"--save-temps", Action::Drop},
      {"-clean", Action::Drop},
      {"--clean-targets", Action::Drop},
      {"--no-align-double", Action::Drop},
      {"-nodlink", Action::Drop},
      {"--no-device-link", Action::Drop},
      {"-extra-device-vectorization", Action::Drop},
      {"--extra-device-vectorization", Action::Drop},
      {"-keep-device-functions", Action::Drop},
      {"--keep-device-functions", Action::Drop},
      {"-Wreorder", Action::Drop},
      {"--Wreorder", Action::Drop},
      {"-Wdefault-stream-launch", Action::Drop},
      {"--Wdefault-stream-launch", Action::Drop},
      {"-Wmissing-launch-bounds", Action::Drop},
      {"--Wmissing-launch-bounds", Action::Drop},
      {"--Wext-lambda-captures-this", Action::Drop},
      {"--Wno-deprecated-declarations", Action::Drop},
      {"-ewp", Action::Drop},
      {"--extensible-whole-program", Action::Drop},
      {"-no-compress", Action::Drop},
      {"--no-compress", Action::Drop},
      {"-qpp-config", Action::Drop},
      {"--qpp-config", Action::Drop},
      {"-astoolspatch", Action::Drop},
      {"--compile-as-tools-patch", Action::Drop},
      {"-code-ls", Action::Drop},
      {"--list-gpu-code", Action::Drop},
      {"-arch-ls", Action::Drop},
      {"--list-gpu-arch", Action::Drop},
      {"-err-no", Action::Drop},
      {"-no-err-no", Action::Drop},
      {"-aug-hls", Action::Drop},
      {"--augment-host-linker-script", Action::Drop},
      {"--relocatable-link", Action::Drop},
      {"-reloc-ptx", Action::Drop},
      {"--relocatable-ptx", Action::Drop},
      {"-jobserver", Action::Drop},
      {"--jobserver", Action::Drop},
      {"-optix-ir", Action::Drop},
      {"--optix-ir", Action::Drop},
      {"-ltoir", Action::Drop},
      {"--ltoir", Action::Drop},
      {"--cuda", Action::Drop},
      {"--cubin", Action::Drop},
      {"--fatbin", Action::Drop},
      {"--ptx", Action::Drop},
      {"-link", Action::Drop},
      {"--link", Action::Drop},
      {"-lib", Action::Drop},
      {"--lib", Action::Drop},
      {"-run", Action::Drop},
      {"--run", Action::Drop},
      {"-noeh", Action::NoExceptions},
      {"--no-exceptions", Action::NoExceptions},
      {"--compile", Action::CompileOnly},
      {"--m64", Action::Drop},
      {"--disable-warnings", Action::Drop},
      {"--optimize", Action::DropWithValue},
      {"--debug", Action::Drop},
      {"--verbose", Action::Drop},
      {"--shared", Action::Drop},
      {"--preprocess", Action::Drop},
      {"--generate-dependencies", Action::Drop},
      {"--generate-nonsystem-dependencies", Action::Drop},
      {"--generate-dependencies-with-compile", Action::Drop},
      {"--generate-nonsystem-dependencies-with-compile", Action::Drop},
      {"--generate-dependency-targets", Action::Drop},
      // Translated.
      {"-Xcompiler", Action::HostCompiler},
      {"--compiler-options", Action::HostCompiler},
      {"--include-path", Action::IncludePath},
      {"--system-include", Action::SystemIncludePath},
      // CMake's CMAKE_INCLUDE_SYSTEM_FLAG_CUDA: '-isystem=/path', which clang
      // would read as a sysroot-relative '=/path'.
      {"-isystem", Action::SystemIncludePath},
      {"--define-macro", Action::Define},
      {"--undefine-macro", Action::Undefine},
      {"--pre-include", Action::PreInclude},
      {"--output-file", Action::OutputFile},
      {"-std", Action::Standard},
      {"--std", Action::Standard},
      {"-x", Action::Language},
      {"--x", Action::Language},
      {"-default-stream", Action::DefaultStream},
      {"--default-stream", Action::DefaultStream},
      {"-optf", Action::OptionsFile},
      {"--options-file", Action::OptionsFile},
  };
  return Options;
}

bool takesValue(Action A) {
  return A != Action::Drop && A != Action::DeviceCompile &&
         A != Action::NoExceptions && A != Action::CompileOnly &&
         A != Action::DeviceDebug && A != Action::ExtendedLambda &&
         A != Action::RelaxedConstexpr;
}

/// nvcc's list-valued options take comma-separated values: each becomes
/// \p Prefix followed by the value, or \p Flag and the value as two
/// arguments.
void appendEach(llvm::StringRef Values, llvm::StringRef Prefix,
                std::vector<std::string> &Out, llvm::StringRef Flag = "") {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Values.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    if (!Flag.empty())
      Out.push_back(Flag.str());
    Out.push_back((Prefix + P.trim()).str());
  }
}

/// -Xcompiler's value: comma-separated, and each part goes to the host
/// compiler's command line, where spaces separate arguments (CMake writes
/// '-Xcompiler "-Wno-terminate -DWITH_MPI -fPIC"'; nvcc defines WITH_MPI).
void appendHostCompilerOptions(llvm::StringRef Values,
                               std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Values.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 8> Words;
    llvm::cl::TokenizeGNUCommandLine(P, Saver, Words);
    for (const char *W : Words)
      Out.push_back(W);
  }
}

} // namespace

bool isNvcc(llvm::StringRef Compiler) {
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

llvm::Expected<std::vector<std::string>>
translateNvccCommand(const std::vector<std::string> &Args,
                     llvm::StringRef Directory) {
  std::vector<std::string> Out = {"clang++"};
  // Arguments still to translate, front first; options files are spliced in.
  std::vector<std::string> Pending(Args.rbegin(), Args.rend() - 1);
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  unsigned OptionsFilesRead = 0;
  // What nvcc defines for a CUDA file's code by its flags: not for a C or
  // C++ file it hands to the host compiler.
  std::vector<std::string> CudaMacros;
  bool Cuda = false;

  while (!Pending.empty()) {
    std::string Arg = std::move(Pending.back());
    Pending.pop_back();
    llvm::StringRef Name = Arg, Value;
    bool HasInlineValue = false;
    if (Arg.size() > 1 && Arg[0] == '-') {
      size_t Eq = Arg.find('=');
      if (Eq != std::string::npos) {
        Name = llvm::StringRef(Arg).take_front(Eq);
        Value = llvm::StringRef(Arg).drop_front(Eq + 1);
        HasInlineValue = true;
      }
    }
    auto It = nvccOptions().find(Name);
    if (It == nvccOptions().end()) {
      if (llvm::sys::path::extension(Arg) == ".cu")
        Cuda = true;
      Out.push_back(Arg); // Shared with clang: -I, -D, -O2, -c, -o, ...
      continue;
    }
    Action A = It->second;
    std::string Separate;
    if (takesValue(A) && !HasInlineValue) {
      if (Pending.empty())
        break; // A trailing option without its value means nothing.
      Separate = std::move(Pending.back());
      Pending.pop_back();
      Value = Separate;
    }
    switch (A) {
    case Action::Drop:
    case Action::DropWithValue:
      break;
    case Action::HostCompiler:
      appendHostCompilerOptions(Value, Out);
      break;
    case Action::IncludePath:
      appendEach(Value, "-I", Out);
      break;
    case Action::SystemIncludePath:
      appendEach(Value, "", Out, "-isystem");
      break;
    case Action::Define:
      appendEach(Value, "-D", Out);
      break;
    case Action::Undefine:
      appendEach(Value, "-U", Out);
      break;
    case Action::PreInclude:
      Out.push_back("-include");
      Out.push_back(Value.str());
      break;
    case Action::OutputFile:
      Out.push_back("-o");
      Out.push_back(Value.str());
      break;
    case Action::Standard:
      Out.push_back(("-std=" + Value).str());
      break;
    case Action::Language:
      Out.push_back("-x");
      Out.push_back(Value == "cu" ? "cuda" : Value.str());
      Cuda = Value == "cu";
      break;
    case Action::DefaultStream:
      // "--default-stream per-thread": the legacy default stream becomes
      // the per-thread stream; nvcc defines this macro for the headers.
      if (Value == "per-thread")
        Out.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      break;
    case Action::RelocatableDeviceCode:
      if (Value == "true") {
        Out.push_back("-fgpu-rdc");
        CudaMacros.push_back("-D__CUDACC_RDC__");
      }
      break;
    case Action::DeviceCompile:
      Out.push_back("-fgpu-rdc");
      Out.push_back("-c");
      CudaMacros.push_back("-D__CUDACC_RDC__");
      break;
    case Action::DeviceDebug:
      CudaMacros.push_back("-D__CUDACC_DEBUG__");
      break;
    case Action::ExtendedLambda:
      CudaMacros.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
      break;
    case Action::RelaxedConstexpr:
      CudaMacros.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
      break;
    case Action::NoExceptions:
      Out.push_back("-fno-exceptions");
      break;
    case Action::CompileOnly:
      Out.push_back("-c");
      break;
    case Action::OptionsFile: {
      if (++OptionsFilesRead > 64)
        return llvm::createStringError("too many nested nvcc options files");
      llvm::SmallString<256> Path(Value);
      if (!llvm::sys::path::is_absolute(Path))
        llvm::sys::path::make_absolute(Directory, Path);
      auto Buffer = llvm::MemoryBuffer::getFile(Path);
      if (!Buffer)
        return llvm::createStringError(Buffer.getError(),
                                       "cannot read nvcc options file '%s'",
                                       Path.c_str());
      llvm::SmallVector<const char *, 32> Tokens;
      llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
      for (auto T = Tokens.rbegin(); T != Tokens.rend(); ++T)
        if (*T)
          Pending.push_back(*T);
      break;
    }
    }
  }
  if (Cuda)
    for (std::string &Macro : CudaMacros)
      if (!llvm::is_contained(Out, Macro))
        Out.push_back(std::move(Macro));
  return Out;
}

} // namespace cuda_async_lint
