//===- Exclusions.cpp -----------------------------------------------------===//

#include "Exclusions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cuda_async_lint {

namespace {

Expected<Exclusions::Glob> compile(StringRef Glob, StringRef From) {
  auto Text = std::make_unique<std::string>(Glob.str());
  // Braces on, as shells expand them ({a,b}), up to 1024 alternatives.
  Expected<GlobPattern> Pattern = GlobPattern::create(*Text, 1024);
  if (!Pattern)
    return createStringError("invalid glob '%s' in %s: %s", Glob.str().c_str(),
                             From.str().c_str(),
                             toString(Pattern.takeError()).c_str());
  return Exclusions::Glob{std::move(Text), std::move(*Pattern)};
}

} // namespace

std::vector<std::string> splitExcludeGlobs(StringRef Value) {
  std::vector<std::string> Out;
  std::string Current;
  int Depth = 0;
  auto End = [&] {
    StringRef Glob = StringRef(Current).trim();
    if (!Glob.empty())
      Out.push_back(Glob.str());
    Current.clear();
  };
  for (char C : Value) {
    if (C == '{')
      ++Depth;
    else if (C == '}' && Depth > 0)
      --Depth;
    if (C == '\n' || C == ';' || (C == ',' && Depth == 0))
      End();
    else
      Current += C;
  }
  End();
  return Out;
}

Expected<Exclusions> Exclusions::make(const std::vector<std::string> &Globs,
                                      std::string SourceRoot) {
  Exclusions E;
  E.SourceRoot = std::move(SourceRoot);
  for (const std::string &Glob : Globs) {
    auto Compiled = compile(Glob, "--exclude");
    if (!Compiled)
      return Compiled.takeError();
    E.Given.push_back(std::move(*Compiled));
  }
  return E;
}

std::string Exclusions::relativePath(StringRef File) const {
  SmallString<256> Path(File);
  if (!SourceRoot.empty() &&
      sys::path::replace_path_prefix(Path, SourceRoot, "")) {
    StringRef Rel = Path;
    Rel = Rel.ltrim("/\\");
    Path = Rel;
  }
  std::string Out(Path);
  std::replace(Out.begin(), Out.end(), '\\', '/');
  return Out;
}

Error Exclusions::removeExcluded(std::vector<std::string> &Files,
                                 const Configuration &Config,
                                 std::vector<std::string> *Excluded) const {
  std::vector<std::string> Kept;
  for (std::string &F : Files) {
    Expected<bool> Out = excludes(F, Config);
    if (!Out)
      return Out.takeError();
    if (!*Out)
      Kept.push_back(std::move(F));
    else if (Excluded)
      Excluded->push_back(std::move(F));
  }
  Files = std::move(Kept);
  return Error::success();
}

Expected<bool> Exclusions::excludes(StringRef File,
                                    const Configuration &Config) const {
  std::string Rel = relativePath(File);
  for (const Glob &G : Given)
    if (G.Pattern.match(Rel))
      return true;
  clang::tidy::ClangTidyOptions Options = Config.optionsFor(File);
  auto It = Options.CheckOptions.find(ExcludeOption);
  if (It == Options.CheckOptions.end())
    return false;
  const std::string &Value = It->getValue().Value;
  auto Known = ByValue.find(Value);
  if (Known == ByValue.end()) {
    std::vector<Glob> Patterns;
    for (const std::string &Glob : splitExcludeGlobs(Value)) {
      auto Compiled =
          compile(Glob, std::string("the option '") + ExcludeOption + "'");
      if (!Compiled)
        return Compiled.takeError();
      Patterns.push_back(std::move(*Compiled));
    }
    Known = ByValue.emplace(Value, std::move(Patterns)).first;
  }
  return any_of(Known->second,
                [&](const Glob &G) { return G.Pattern.match(Rel); });
}

} // namespace cuda_async_lint
