//===- Fixes.cpp ----------------------------------------------------------===//

#include "Fixes.h"
#include "AtomicFile.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/xxhash.h"
#include <map>

using namespace clang;

namespace cuda_async_lint {

static tooling::Replacement replacementOf(const ResolvedFix &Fix) {
  return tooling::Replacement(Fix.Begin.File, Fix.Begin.Offset,
                              Fix.End.Offset - Fix.Begin.Offset,
                              Fix.Replacement);
}

PlannedFixes planFixes(Report &R, FixSummary &Summary) {
  PlannedFixes Plan;
  for (ResolvedFinding &F : R.Findings) {
    std::vector<RenderedMessage> FixNotes;
    for (const ResolvedFix &Fix : F.Fixes) {
      ++Summary.Total;
      tooling::Replacements &File = Plan.ByFile[Fix.Begin.File];
      Plan.ParsedHash[Fix.Begin.File] = Fix.ParsedContentHash;
      bool Applied = true;
      if (llvm::Error Conflict = File.add(replacementOf(Fix))) {
        llvm::consumeError(std::move(Conflict));
        Applied = false;
      }
      Summary.Applied += Applied;
      RenderedMessage Note;
      Note.IsNote = true;
      Note.File = Fix.Begin.File;
      Note.Offset = Fix.Begin.Offset;
      Note.Message = Applied ? "FIX-IT applied suggested code changes"
                             : "FIX-IT unable to apply suggested code changes";
      FixNotes.push_back(std::move(Note));
    }
    // clang-tidy prints these right after the warning.
    if (!F.Messages.empty())
      F.Messages.insert(F.Messages.begin() + 1, FixNotes.begin(),
                        FixNotes.end());
  }
  return Plan;
}

uint64_t contentHash(llvm::StringRef Content) {
  return llvm::xxh3_64bits(Content);
}

llvm::Error applyFixes(const PlannedFixes &Plan) {
  // Read and check every file before writing any.
  std::map<std::string, std::string> Fixed;
  for (const auto &[File, Replacements] : Plan.ByFile) {
    if (Replacements.empty())
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                     File.c_str(),
                                     Buffer.getError().message().c_str());
    auto Hash = Plan.ParsedHash.find(File);
    if (Hash == Plan.ParsedHash.end() ||
        Hash->second != contentHash((*Buffer)->getBuffer()))
      return llvm::createStringError(
          "'%s' changed since it was analysed; no fix was applied to any file",
          File.c_str());
    llvm::Expected<std::string> Result =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Result)
      return Result.takeError();
    Fixed[File] = std::move(*Result);
  }
  for (const auto &[File, Content] : Fixed)
    if (llvm::Error E = writeFileAtomically(File, Content))
      return E;
  return llvm::Error::success();
}

static tooling::DiagnosticMessage messageOf(const std::string &Message,
                                            const FileLocation &Loc) {
  tooling::DiagnosticMessage M;
  M.Message = Message;
  M.FilePath = Loc.File;
  M.FileOffset = Loc.Offset;
  return M;
}

llvm::Error checkExportablePath(llvm::StringRef Path) {
  if (llvm::json::isUTF8(Path))
    return llvm::Error::success();
  std::string Escaped;
  llvm::raw_string_ostream OS(Escaped);
  llvm::printEscapedString(Path, OS);
  return llvm::createStringError(
      "--export-fixes cannot name '%s': the path is not valid UTF-8, which "
      "YAML cannot carry, so clang-apply-replacements would not find the "
      "file (rename it, or apply the fixes with --fix)",
      Escaped.c_str());
}

llvm::Error writeExportedFixes(const Report &R, llvm::StringRef MainSourceFile,
                               llvm::raw_ostream &OS) {
  // YAML is Unicode: a path that is not UTF-8 would be written with U+FFFD
  // in place of its bytes, and the fix applied to no file.
  if (llvm::Error E = checkExportablePath(MainSourceFile))
    return E;
  for (const ResolvedFinding &F : R.Findings) {
    if (llvm::Error E = checkExportablePath(F.Loc.File))
      return E;
    for (const ResolvedNote &N : F.Notes)
      if (llvm::Error E = checkExportablePath(N.Loc.File))
        return E;
    for (const ResolvedFix &Fix : F.Fixes)
      if (llvm::Error E = checkExportablePath(Fix.Begin.File))
        return E;
    if (llvm::Error E = checkExportablePath(F.BuildDirectory))
      return E;
  }
  tooling::TranslationUnitDiagnostics TUD;
  TUD.MainSourceFile = MainSourceFile.str();
  for (const ResolvedFinding &F : R.Findings) {
    tooling::Diagnostic D;
    D.DiagnosticName = F.CheckId;
    D.DiagLevel = tooling::Diagnostic::Warning;
    D.BuildDirectory = F.BuildDirectory;
    D.Message = messageOf(F.Message, F.Loc);
    for (const ResolvedFix &Fix : F.Fixes)
      llvm::consumeError(D.Message.Fix[Fix.Begin.File].add(replacementOf(Fix)));
    for (const ResolvedNote &N : F.Notes)
      D.Notes.push_back(messageOf(N.Message, N.Loc));
    TUD.Diagnostics.push_back(std::move(D));
  }
  llvm::yaml::Output YAML(OS);
  YAML << TUD;
  return llvm::Error::success();
}

} // namespace cuda_async_lint
