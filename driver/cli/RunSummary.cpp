//===- RunSummary.cpp -----------------------------------------------------===//

#include "RunSummary.h"
#include "ExitCodes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace llvm;

namespace cuda_async_lint {

StringRef firstErrorLine(StringRef Errors) {
  for (StringRef Rest = Errors; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    if (Line.contains(": error: "))
      return Line;
    Rest = Next;
  }
  return {};
}

/// Files stopped by one error (a header every unit includes, a flag the
/// build's compiler takes otherwise): the cause, said once.
static void sayCommonFirstError(const std::vector<FailedFile> &Failures) {
  if (Failures.size() < 2)
    return;
  std::map<std::string, size_t> ByFirstError;
  for (const FailedFile &F : Failures)
    if (StringRef First = firstErrorLine(F.Errors); !First.empty())
      ++ByFirstError[First.str()];
  auto Most = max_element(ByFirstError, [](const auto &A, const auto &B) {
    return A.second < B.second;
  });
  if (Most != ByFirstError.end() && Most->second > 1)
    errs() << "cuda-async-lint: " << Most->second << " of the "
           << Failures.size()
           << " files not analysed stop at the same error: " << Most->first
           << "\n";
}

void sayRunSummary(const Invocation &I, const Report &R,
                   const OutputContext &Ctx, int Status, bool TextOnStdout,
                   std::chrono::steady_clock::duration Took) {
  size_t Failing = count_if(
      R.Findings, [](const ResolvedFinding &F) { return F.FailsGate; });
  // What fails the gate, whatever the exit status: with a file not
  // analysed too (exit 3), the findings still decide the next run's gate.
  if (!TextOnStdout) {
    size_t Listed = 0;
    for (const ResolvedFinding &F : R.Findings) {
      if (!F.FailsGate)
        continue;
      if (Listed++ == MaxListedFailures) {
        errs() << "cuda-async-lint: ... and " << Failing - MaxListedFailures
               << " more failing findings in the report\n";
        break;
      }
      errs() << locationText(F.Loc, Ctx) << ": " << F.CheckId << ": "
             << F.Message << "\n";
    }
  }
  size_t Failed = R.Failures.size();
  for (size_t N = 0; N < Failed && N < MaxListedFailures; ++N)
    errs() << "cuda-async-lint: not analysed: " << R.Failures[N].File << " ("
           << R.Failures[N].Reason << ")\n";
  if (Failed > MaxListedFailures)
    errs() << "cuda-async-lint: ... and " << Failed - MaxListedFailures
           << " more files not analysed in the report\n";
  sayCommonFirstError(R.Failures);
  std::string Line =
      "cuda-async-lint: " + countOf(R.FilesAnalysed - Failed, "file", "files") +
      " analysed";
  if (Failed)
    Line += ", " + std::to_string(Failed) + " not analysed";
  if (!R.Excluded.empty())
    Line += ", " + std::to_string(R.Excluded.size()) + " excluded";
  Line += "; " + countOf(R.Findings.size(), "finding", "findings");
  if (Failing != R.Findings.size())
    Line += " (" + std::to_string(Failing) + " failing the gate)";
  if (!I.BaselinePath.empty())
    Line += ", " + std::to_string(R.Baselined) + " in the baseline";
  if (R.Suppressed)
    Line += ", " + std::to_string(R.Suppressed) + " suppressed by NOLINT";
  double Seconds = std::chrono::duration<double>(Took).count();
  Line += formatv("; {0:f1} s", Seconds).str();
  if (Failed && !I.ParseErrorsFail)
    Line += " (files not analysed do not fail the run: "
            "--parse-errors-fail=false)";
  errs() << Line << "\n";
  // Why the run exits as it does, in the terms of the gate.
  if (Status == ExitParseError)
    errs() << "cuda-async-lint: exit " << ExitParseError << ": "
           << countOf(Failed, "file", "files")
           << " could not be analysed (--parse-errors-fail=false leaves the "
              "gate to the findings)\n";
  else if (Status == ExitFindings)
    errs() << "cuda-async-lint: exit " << ExitFindings << ": "
           << countOf(Failing, "finding fails", "findings fail")
           << " the gate\n";
}

} // namespace cuda_async_lint
