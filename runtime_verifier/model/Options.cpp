//===- Options.cpp - cuda-async-verify's command line ---------------------===//

#include "Options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace cuda_async_verify {

const std::vector<std::string> &verifiedChecks() {
  static const std::vector<std::string> Checks = {
      "cuda-async-pageable-copy",         "cuda-async-default-stream",
      "cuda-async-sync-in-loop",          "cuda-async-pinned-alloc-in-loop",
      "cuda-async-unsynchronized-access", "cuda-async-dealloc-mismatch"};
  return Checks;
}

const char *usageText() {
  return R"(USAGE: cuda-async-verify [options]

Runs the reference pipeline (B batches of H2D -> kernel -> D2H over S
streams) in a buggy and a fixed variant for each cuda-async-lint check, on
the GPU, and states whether each fix restores overlap or correctness.

Pipeline:
  --batch-mib N         bytes per batch, in MiB (default 32)
  --batches N           batches per run (default 8)
  --streams N           streams the batches are spread over (default 4)
  --intensity N|auto    kernel arithmetic per element; auto (default) makes
                        the kernel take as long as one batch's H2D copy
Measurement:
  --warmup N            untimed runs before timing (default 2)
  --repeats N           timed runs; the median is reported (default 20)
  --device N            CUDA device ordinal (default 0)
  --no-trace            skip the CUPTI-traced run of each variant
  --no-reproductions    skip the background documents' examples
  --variants all|buggy|fixed
                        run only the buggy or the fixed variants, for a
                        trace of each alone (no verdicts then; default all)
Verdicts:
  --checks A,B,...      checks to verify (default: all; see --list-checks)
  --min-efficiency F    overlap efficiency a fix must reach (default 0.90),
                        against the ideal of the stages as this machine runs
                        them together
  --min-speedup F       buggy/fixed time ratio a fix must reach (default 1.10)
Output:
  --json FILE           write the full report as JSON
  --timeline FILE.svg   draw buggy vs fixed engine timelines
  --list-checks         print the verified checks and exit
  --version, --help

A bar is passed when the 95% interval of the runs' median clears it, missed
when the interval lies below it, and inconclusive on this machine otherwise
(measured again, up to 3 times, first).

Exit codes: 0 every verdict passed, 1 a verdict failed, 2 bad command line,
3 no usable GPU or a CUDA call failed, 4 no verdict failed but some were
inconclusive on this machine.
)";
}

namespace {

bool parseUnsigned(const std::string &Text, unsigned Min, unsigned Max,
                   unsigned &Out) {
  if (Text.empty() || Text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  unsigned long long Value = std::strtoull(Text.c_str(), nullptr, 10);
  if (errno || Value < Min || Value > Max)
    return false;
  Out = static_cast<unsigned>(Value);
  return true;
}

bool parseDouble(const std::string &Text, double Min, double Max, double &Out) {
  char *End = nullptr;
  errno = 0;
  double Value = std::strtod(Text.c_str(), &End);
  if (Text.empty() || *End || errno || !(Value >= Min && Value <= Max))
    return false;
  Out = Value;
  return true;
}

std::vector<std::string> splitList(const std::string &Text) {
  std::vector<std::string> Items;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t Comma = Text.find(',', Start);
    if (Comma == std::string::npos)
      Comma = Text.size();
    Items.push_back(Text.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  return Items;
}

} // namespace

ParseResult parseOptions(const std::vector<std::string> &Args) {
  ParseResult R;
  Options &O = R.Parsed;
  auto Fail = [&R](std::string Message) {
    R.Error = std::move(Message);
    return R;
  };
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Flag = Args[I], Value;
    bool HasValue = false;
    if (size_t Eq = Flag.find('=');
        Flag.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Value = Flag.substr(Eq + 1);
      Flag = Flag.substr(0, Eq);
      HasValue = true;
    }
    // Flags without a value.
    if (Flag == "--help" || Flag == "-h" || Flag == "--version" ||
        Flag == "--list-checks" || Flag == "--no-trace" ||
        Flag == "--no-reproductions") {
      if (HasValue)
        return Fail("option '" + Flag + "' takes no value");
      O.Help |= Flag == "--help" || Flag == "-h";
      O.Version |= Flag == "--version";
      O.ListChecks |= Flag == "--list-checks";
      O.Trace &= Flag != "--no-trace";
      O.Reproductions &= Flag != "--no-reproductions";
      continue;
    }
    static const char *const WithValue[] = {
        "--batch-mib",      "--batches",     "--streams", "--intensity",
        "--warmup",         "--repeats",     "--device",  "--checks",
        "--min-efficiency", "--min-speedup", "--json",    "--timeline",
        "--child-release",  "--variants"};
    if (std::find(std::begin(WithValue), std::end(WithValue), Flag) ==
        std::end(WithValue))
      return Fail("unknown option '" + Args[I] + "' (see --help)");
    if (!HasValue) {
      if (I + 1 == Args.size())
        return Fail("option '" + Flag + "' needs a value");
      Value = Args[++I];
    }
    unsigned Number = 0;
    auto BadValue = [&](const char *Expected) {
      return Fail("invalid value '" + Value + "' for " + Flag + ": expected " +
                  Expected);
    };
    if (Flag == "--batch-mib") {
      if (!parseUnsigned(Value, 1, 4096, Number))
        return BadValue("a whole number of MiB from 1 to 4096");
      O.BatchBytes = static_cast<std::uint64_t>(Number) << 20;
    } else if (Flag == "--batches") {
      if (!parseUnsigned(Value, 1, 4096, O.Batches))
        return BadValue("a number from 1 to 4096");
    } else if (Flag == "--streams") {
      if (!parseUnsigned(Value, 1, 256, O.Streams))
        return BadValue("a number from 1 to 256");
    } else if (Flag == "--intensity") {
      if (Value == "auto")
        O.Intensity.reset();
      else if (parseUnsigned(Value, 1, 1u << 24, Number))
        O.Intensity = Number;
      else
        return BadValue("'auto' or a number from 1 to 16777216");
    } else if (Flag == "--warmup") {
      if (!parseUnsigned(Value, 0, 1000, O.Warmup))
        return BadValue("a number from 0 to 1000");
    } else if (Flag == "--repeats") {
      if (!parseUnsigned(Value, 1, 10000, O.Repeats))
        return BadValue("a number from 1 to 10000");
    } else if (Flag == "--device") {
      if (!parseUnsigned(Value, 0, 1023, Number))
        return BadValue("a device ordinal");
      O.Device = static_cast<int>(Number);
    } else if (Flag == "--checks") {
      O.Checks.clear();
      for (const std::string &Id : splitList(Value)) {
        if (Id == "all") {
          O.Checks = verifiedChecks();
          continue;
        }
        const auto &Known = verifiedChecks();
        if (std::find(Known.begin(), Known.end(), Id) == Known.end())
          return Fail("unknown check '" + Id +
                      "' in --checks (see --list-checks)");
        if (std::find(O.Checks.begin(), O.Checks.end(), Id) == O.Checks.end())
          O.Checks.push_back(Id);
      }
    } else if (Flag == "--min-efficiency") {
      if (!parseDouble(Value, 0, 1, O.Bar.MinEfficiency))
        return BadValue("a fraction from 0 to 1");
    } else if (Flag == "--min-speedup") {
      if (!parseDouble(Value, 1, 1000, O.Bar.MinSpeedup))
        return BadValue("a ratio of at least 1");
    } else if (Flag == "--json") {
      O.JsonPath = Value;
    } else if (Flag == "--timeline") {
      O.TimelinePath = Value;
    } else if (Flag == "--child-release") {
      O.ChildRelease = Value;
    } else if (Flag == "--variants") {
      if (Value == "buggy")
        O.OnlyRole = Role::Buggy;
      else if (Value == "fixed")
        O.OnlyRole = Role::Fixed;
      else if (Value != "all")
        return Fail("option '--variants' takes all, buggy or fixed, not '" +
                    Value + "'");
    }
    if (Value.empty())
      return Fail("option '" + Flag + "' needs a non-empty value");
  }
  return R;
}

} // namespace cuda_async_verify
