//===- CallSiteSymbolizer.cpp - From return addresses to a line -----------===//

#include "CallSiteSymbolizer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cuda_async_trace {

bool isRuntimeModule(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  for (llvm::StringRef Prefix :
       {"libcuda.so", "libcudart", "libcupti", "libnvidia-",
        "libcuda-async-trace-injection", "libc.so", "libc-", "libstdc++",
        "libgcc_s", "libm.so", "libpthread", "libdl.so", "librt.so", "ld-linux",
        "linux-vdso", "libamdhip64"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

bool isLibraryFile(llvm::StringRef File) {
  if (File.empty() || File == "<invalid>")
    return true;
  for (llvm::StringRef Dir :
       {"/usr/include/", "/usr/lib/gcc/", "/usr/local/cuda", "/opt/cuda/",
        "/targets/x86_64-linux/include/", "/targets/sbsa-linux/include/"})
    if (File.contains(Dir))
      return true;
  llvm::StringRef Name = llvm::sys::path::filename(File);
  // nvcc's generated launch stubs and the runtime's templates.
  return Name.ends_with(".stub.c") || Name.starts_with("cuda_runtime") ||
         Name.starts_with("cuda_device_runtime") || Name == "host_runtime.h";
}

std::string releaseFunction(llvm::StringRef Symbol) {
  if (Symbol.empty())
    return "";
  std::string Name = llvm::demangle(Symbol.str());
  llvm::StringRef N(Name);
  N = N.take_until([](char C) { return C == '('; });
  // The C library's own names for free().
  for (llvm::StringRef Free : {"free", "cfree", "__libc_free", "_int_free"})
    if (N == Free)
      return "free";
  for (llvm::StringRef Release :
       {"operator delete", "operator delete[]", "munmap", "realloc",
        "cudaFreeHost", "cudaFree", "cuMemFreeHost", "cuMemFree"})
    if (N == Release)
      return N.str();
  return "";
}

CallSiteSymbolizer::CallSiteSymbolizer(std::vector<std::string> SymbolDirs)
    : Symbolizer([] {
        llvm::symbolize::LLVMSymbolizer::Options Opts;
        Opts.Demangle = true;
        Opts.UseSymbolTable = true;
        Opts.RelativeAddresses = false;
        return Opts;
      }()),
      SymbolDirs(std::move(SymbolDirs)) {}

static std::string buildIdOf(llvm::StringRef Path) {
  auto Object = llvm::object::ObjectFile::createObjectFile(Path);
  if (!Object) {
    llvm::consumeError(Object.takeError());
    return "";
  }
  llvm::object::BuildIDRef Id = llvm::object::getBuildID(Object->getBinary());
  return llvm::toHex(Id, /*LowerCase=*/true);
}

std::optional<std::string> CallSiteSymbolizer::localFile(const RawModule &M) {
  std::string Key = M.Path + "\n" + M.BuildId;
  auto It = Files.find(Key);
  if (It != Files.end())
    return It->second;
  std::vector<std::string> Candidates{M.Path};
  for (const std::string &Dir : SymbolDirs) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, llvm::sys::path::filename(M.Path));
    Candidates.push_back(P.str().str());
  }
  std::optional<std::string> Found;
  for (const std::string &C : Candidates) {
    if (!llvm::sys::fs::is_regular_file(C))
      continue;
    // Another build of the same name would give wrong lines: the build id
    // must match where the tracer recorded one.
    if (M.BuildId.empty() || buildIdOf(C) == M.BuildId) {
      Found = C;
      break;
    }
  }
  Files[Key] = Found;
  return Found;
}

std::string kernelOfStub(llvm::StringRef Function) {
  // nvcc's stub for kernel K is __device_stub__<K's mangled name without
  // its leading '_'> (and, for templates, __wrapper__device_stub_<K>).
  llvm::StringRef Name = Function;
  if (Name.consume_front("__wrapper__device_stub_"))
    return baseName(Name);
  size_t At = Name.find("__device_stub__");
  if (At == llvm::StringRef::npos)
    return "";
  Name = Name.drop_front(At + 15).take_until([](char C) { return C == '('; });
  if (Name.starts_with("Z"))
    return baseName(llvm::demangle("_" + Name.str()));
  return baseName(Name);
}

std::string baseName(llvm::StringRef Function) {
  // "void ns::scale<float>(float*, float)" -> "ns::scale": no parameters,
  // no template arguments, no return type.
  llvm::StringRef Name = Function.take_until([](char C) { return C == '('; });
  Name = Name.take_until([](char C) { return C == '<'; });
  size_t Space = Name.rfind(' ');
  if (Space != llvm::StringRef::npos)
    Name = Name.drop_front(Space + 1);
  return Name.str();
}

CallSite CallSiteSymbolizer::callSite(const std::vector<RawModule> &Modules,
                                      const std::vector<std::uint64_t> &Stack,
                                      const std::vector<std::string> &Names) {
  CallSite Result;
  // A <<<...>>> launch calls the kernel's host function, which nvcc writes
  // (with a #line of the kernel's declaration) to call the stub that calls
  // cudaLaunchKernel: past a stub, that function is not the call site.
  std::string LaunchedKernel;
  for (size_t I = 0; I < Stack.size(); ++I) {
    std::uint64_t Address = Stack[I];
    if (Result.ReleasedIn.empty() && I < Names.size())
      Result.ReleasedIn = releaseFunction(Names[I]);
    const RawModule *M = nullptr;
    for (const RawModule &Candidate : Modules)
      for (const auto &[Lo, Hi] : Candidate.Ranges)
        if (Address >= Lo && Address < Hi)
          M = &Candidate;
    if (!M || isRuntimeModule(M->Path))
      continue;
    std::optional<std::string> File = localFile(*M);
    if (!File) {
      Unreadable.insert(M->Path);
      continue;
    }
    // A return address is the instruction after the call: the call is one
    // byte before it.
    llvm::object::SectionedAddress Offset{
        Address - M->Base - 1, llvm::object::SectionedAddress::UndefSection};
    auto Inlined = Symbolizer.symbolizeInlinedCode(*File, Offset);
    if (!Inlined) {
      llvm::consumeError(Inlined.takeError());
      continue;
    }
    for (uint32_t F = 0; F < Inlined->getNumberOfFrames(); ++F) {
      const llvm::DILineInfo &Line = Inlined->getFrame(F);
      if (Result.ReleasedIn.empty())
        Result.ReleasedIn = releaseFunction(Line.FunctionName);
      if (std::string Kernel = kernelOfStub(Line.FunctionName); !Kernel.empty())
        LaunchedKernel = Kernel;
      if (Line.Line == 0 || isLibraryFile(Line.FileName))
        continue;
      if (!LaunchedKernel.empty() &&
          baseName(Line.FunctionName) == LaunchedKernel) {
        LaunchedKernel.clear();
        continue;
      }
      Result.Location.File = Line.FileName;
      Result.Location.Line = Line.Line;
      Result.Location.Column = Line.Column;
      Result.Location.Function =
          Line.FunctionName == llvm::DILineInfo::BadString ? ""
                                                           : Line.FunctionName;
      return Result;
    }
  }
  return Result;
}

} // namespace cuda_async_trace
