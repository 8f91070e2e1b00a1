//===- ReportWriting.cpp - A run's report, written whole ------------------===//

#include "ReportWriting.h"
#include "ExitCodes.h"
#include "UsageError.h"
#include "report/Fixes.h"
#include "support/AtomicFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace llvm;

namespace cuda_async_lint {

Error checkOutputs(const Invocation &I, ArrayRef<std::string> Inputs) {
  // Never one of the inputs: --output=a.cu a.cu would replace the source by
  // the report.
  std::vector<std::pair<StringRef, StringRef>> Outputs = {
      {"--output", I.OutputPath}, {"--export-fixes", I.ExportFixes}};
  for (const auto &[Format, Path] : I.Reports)
    Outputs.push_back({"--report", Path});
  for (const auto &[Option, Path] : Outputs) {
    if (Path.empty())
      continue;
    for (const std::string &Input : Inputs)
      if (sys::fs::equivalent(Input, Path))
        return createStringError(Option + "='" + Path +
                                 "' would overwrite the input file '" + Input +
                                 "'");
    if (Error E = checkWritable(Path))
      return E;
  }
  if (!I.ExportFixes.empty())
    for (const std::string &Input : Inputs)
      if (Error E = checkExportablePath(Input))
        return E;
  return Error::success();
}

int writeRunReport(const Invocation &I, Report &R, OutputContext &Ctx,
                   ArrayRef<std::string> Inputs, bool Streamed, bool Colors) {
  if (!I.ExportFixes.empty()) {
    std::string YAML;
    raw_string_ostream YAMLStream(YAML);
    if (Error E = writeExportedFixes(
            R, Inputs.size() == 1 ? Inputs.front() : "", YAMLStream))
      return usageError(std::move(E));
    if (Error E = writeFileAtomically(I.ExportFixes, YAML))
      return usageError(std::move(E));
  }
  // --fix writes the files first, so that the report's notes say what was
  // written; the report then quotes the files as they were analysed.
  FixSummary Fixed;
  std::optional<Error> FixFailed;
  if (I.Fix) {
    PlannedFixes Plan = planFixes(R);
    std::set<std::string> Written;
    Expected<std::map<std::string, FixedFile>> Prepared = prepareFixes(Plan);
    if (!Prepared)
      FixFailed = Prepared.takeError();
    else if (Error E = writeFixedFiles(*Prepared, Written))
      FixFailed = std::move(E);
    if (Prepared)
      Ctx.Sources = sourcesAsAnalysed(*Prepared, Written);
    Fixed = noteFixes(R, Plan, Written);
  }

  // A report file is written into a temporary file beside it, renamed
  // over it once whole: a failed write never leaves half of it behind, and
  // a report of many findings is never held in memory whole (an HTML
  // report quotes every finding's line). Standard output gets it complete
  // or not at all, from memory.
  auto Render = [&](ReportFormat Format, bool WithColors) {
    std::string Rendered;
    raw_string_ostream OS(Rendered);
    OS.enable_colors(WithColors);
    writeReport(Format, R, Ctx, OS, WithColors);
    OS.flush();
    return Rendered;
  };
  auto WriteFile = [&](StringRef Path, ReportFormat Format) {
    return writeFileAtomically(Path, [&](raw_ostream &OS) {
      writeReport(Format, R, Ctx, OS, /*WithColors=*/false);
    });
  };
  // Text streamed to standard output has no output file.
  if (!I.OutputPath.empty()) {
    if (Error E = WriteFile(I.OutputPath, I.Format))
      return usageError(std::move(E));
  } else {
    std::string Rendered = Streamed ? std::string() : Render(I.Format, Colors);
    outs() << Rendered;
    outs().flush();
    if (outs().has_error()) {
      std::string Reason = outs().error().message();
      outs().clear_error();
      return usageError("cannot write standard output: " + Reason);
    }
  }
  // The same findings in the other formats --report asks for, each file
  // written whole.
  for (const auto &[Format, Path] : I.Reports)
    if (Error E = WriteFile(Path, Format))
      return usageError(std::move(E));
  if (FixFailed)
    return usageError(std::move(*FixFailed));
  if (I.Fix)
    errs() << "cuda-async-lint: applied " << Fixed.Applied << " of "
           << Fixed.Total << " suggested fixes\n";

  // A file that could not be analysed fails the run, unless
  // --parse-errors-fail=false leaves the gate to the findings.
  if (!R.Failures.empty() && I.ParseErrorsFail)
    return ExitParseError;
  // Every finding fails the gate unless WarningsAsErrors is set, which then
  // decides (ResolvedFinding::FailsGate).
  return llvm::any_of(R.Findings,
                      [](const ResolvedFinding &F) { return F.FailsGate; })
             ? ExitFindings
             : ExitClean;
}

} // namespace cuda_async_lint
