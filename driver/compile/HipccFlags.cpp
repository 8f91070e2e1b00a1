//===- HipccFlags.cpp - hipcc flag translation ----------------------------===//

#include "HipccFlags.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace cuda_async_lint {

bool isHipcc(llvm::StringRef Compiler) {
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  Name.consume_back(".exe");
  return Name == "hipcc" || Name == "hipcc.pl" || Name == "hipcc.bin";
}

/// The language hipcc compiles \p File as, when the command does not say.
static llvm::StringRef hipccLanguage(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".c")
    return "c";
  return llvm::StringSwitch<llvm::StringRef>(Ext)
      .Cases({".cpp", ".cxx", ".cc", ".C", ".cu", ".cuh", ".hip"}, "hip")
      .Default("");
}

std::vector<std::string>
translateHipccCommand(const std::vector<std::string> &Args,
                      llvm::StringRef File) {
  std::vector<std::string> Out = {"clang++"};
  bool NamesLanguage = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    // hipcc's own: how to link the HIP runtime, its function-support
    // switches; a code object version is device code generation.
    if (A == "-use-staticlib" || A == "-use-sharedlib" ||
        A.starts_with("--hipcc") || A == "--genco" ||
        A.starts_with("--amdhsa-code-object-version="))
      continue;
    if (A == "-use_fast_math") {
      Out.push_back("-DHIP_FAST_MATH");
      continue;
    }
    if (A == "-x" || (A.starts_with("-x") && A.size() > 2))
      NamesLanguage = true;
    Out.push_back(A.str());
  }
  // hipcc names the language before each input; a compile command has one.
  if (!NamesLanguage)
    if (llvm::StringRef Language = hipccLanguage(File); !Language.empty())
      Out.insert(Out.begin() + 1, {"-x", Language.str()});
  return Out;
}

} // namespace cuda_async_lint
