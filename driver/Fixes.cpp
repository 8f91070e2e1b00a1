//===- Fixes.cpp ----------------------------------------------------------===//

#include "Fixes.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
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

llvm::Error applyFixes(const PlannedFixes &Plan) {
  for (const auto &[File, Replacements] : Plan.ByFile) {
    if (Replacements.empty())
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read '%s'",
                                     File.c_str());
    llvm::Expected<std::string> Fixed =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Fixed)
      return Fixed.takeError();
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write '%s'", File.c_str());
    OS << *Fixed;
  }
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

void writeExportedFixes(const Report &R, llvm::StringRef MainSourceFile,
                        llvm::raw_ostream &OS) {
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
}

} // namespace cuda_async_lint
