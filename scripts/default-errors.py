#!/usr/bin/env python3
"""Every diagnostic clang makes an error by default, and what the tool does
with it: tolerated (nvcc or its host compiler accepts the construct), kept
(they reject it too) or not-applicable (a language, target or stage the
tool never parses). docs/nvcc-dialect.md explains the decisions.

  scripts/default-errors.py check [--include-dir DIR]
      Reads clang's diagnostic tables (DIR/clang/Basic/Diagnostic*Kinds.inc
      and DiagnosticGroups.inc; DIR defaults to `llvm-config-22
      --includedir`), decides each default error by
      docs/nvcc-dialect/default-errors.tsv, and checks that list against
      driver/run/NvccAcceptedDiagnostics.def, what the driver tolerates.
      Prints the counts by decision. Exit status 1 if a default error
      matches no row, a row decides none, a tolerated row is not an exact
      name, or the .def and the list disagree: a clang upgrade that adds a
      default error fails here until it is decided.

  scripts/default-errors.py list [--include-dir DIR]
      Each default error, its decision and the row that decided it,
      tab-separated.

  scripts/default-errors.py inputs --lint BIN [--gcc gcc --gxx g++ --nvcc
                                    nvcc --cuda-include DIR]
      Runs the inputs of the tolerated diagnostics
      (test/Inputs/nvcc-dialect/NAME.{c,cc,cu}, one per language each is
      tolerated in): the tool analyses each, reports its finding and names
      the diagnostic among those it tolerated (JSON; an input that says
      'unlisted:' is exempt from that), and fails it (exit 3)
      with -DGENUINE_ERROR, a real error beside the construct; the
      compilers given (each skipped if absent) compile it with at most
      warnings. Exit status 1 on the first input that does not hold.

A row of the decisions file is: match, decision, how, languages, reason,
tab-separated ('#' starts a comment line). match is a diagnostic's exact
name, or patterns joined by ' & ', each one of 're:REGEX' (the name matches
it whole), 'file:KIND' (the diagnostic is in DiagnosticKINDKinds.inc),
'text:REGEX' (its message contains a match), 'group:NAME' (its warning
group). An exact name decides its diagnostic; otherwise the first pattern
row that matches does. how and languages are those of
NvccAcceptedDiagnostics.def for a tolerated row (downgrade, after-parse or
rewrite; c, c++, cuda), '-' for the others.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECISIONS = os.path.join(ROOT, "docs", "nvcc-dialect", "default-errors.tsv")
ACCEPTED = os.path.join(ROOT, "driver", "run", "NvccAcceptedDiagnostics.def")
INPUTS = os.path.join(ROOT, "test", "Inputs", "nvcc-dialect")
DECISION_NAMES = ("tolerated", "kept", "not-applicable")
HOW = {"Downgrade": "downgrade", "AfterParse": "after-parse",
       "Rewrite": "rewrite"}
LANGUAGES = {"C": "c", "Cxx": "c++", "Cuda": "cuda"}
EXTENSION = {"c": ".c", "c++": ".cc", "cuda": ".cu"}

DIAG = re.compile(
    r'^DIAG\(\s*(\w+)\s*,\s*(CLASS_\w+)\s*,\s*\(unsigned\)diag::Severity::'
    r'(\w+)\s*,\s*("(?:[^"\\]|\\.)*")\s*,\s*(\d+)', re.M | re.S)
GROUP = re.compile(r'^DIAG_ENTRY\(\w+ /\* (.*?) \*/', re.M)


def include_dir(given):
    if given:
        return given
    for tool in ("llvm-config-22", "llvm-config"):
        path = shutil.which(tool)
        if path:
            out = subprocess.run([path, "--includedir"], capture_output=True,
                                 text=True)
            if out.returncode == 0:
                return out.stdout.strip()
    return "/usr/lib/llvm-22/include"


def unquote(literal):
    """The text of a C string literal (its escapes read as C reads them)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(
        m.group(1), m.group(1)), literal[1:-1])


def read_tables(directory):
    """Every diagnostic clang declares: name, class, default severity,
    message, warning group, and the Kinds file it is declared in."""
    basic = os.path.join(directory, "clang", "Basic")
    groups_inc = os.path.join(basic, "DiagnosticGroups.inc")
    kinds = sorted(glob.glob(os.path.join(basic, "Diagnostic*Kinds.inc")))
    if not kinds or not os.path.exists(groups_inc):
        sys.exit("default-errors.py: no clang diagnostic tables under %s"
                 % basic)
    text = open(groups_inc, encoding="utf-8").read()
    start = text.index("#ifdef DIAG_ENTRY")
    groups = GROUP.findall(text[start:])
    diagnostics = []
    for path in kinds:
        kind = os.path.basename(path)[len("Diagnostic"):-len("Kinds.inc")]
        for m in DIAG.finditer(open(path, encoding="utf-8").read()):
            name, klass, severity, message, group = m.groups()
            group = int(group)
            diagnostics.append({
                "name": name, "class": klass[len("CLASS_"):].lower(),
                "severity": severity, "file": kind,
                "message": unquote(message),
                "group": groups[group] if 0 < group < len(groups) else ""})
    return diagnostics


def default_errors(diagnostics):
    """Errors (hard errors), and warnings and extensions whose default
    severity is an error (DefaultError)."""
    return [d for d in diagnostics if d["class"] == "error" or (
        d["class"] in ("warning", "extension")
        and d["severity"] in ("Error", "Fatal"))]


class Row:
    def __init__(self, line_number, fields):
        self.line = line_number
        self.match, self.decision, self.how, self.languages, self.reason = \
            fields
        self.exact = re.fullmatch(r"\w+", self.match) is not None
        self.tests = [] if self.exact else [
            self.pattern(p.strip()) for p in self.match.split(" & ")]
        self.decided = []

    def pattern(self, text):
        kind, _, value = text.partition(":")
        if kind == "re":
            regex = re.compile(value)
            return lambda d: regex.fullmatch(d["name"]) is not None
        if kind == "text":
            regex = re.compile(value)
            return lambda d: regex.search(d["message"]) is not None
        if kind == "file":
            return lambda d: d["file"] == value
        if kind == "group":
            return lambda d: d["group"] == value
        raise ValueError("line %d: unknown pattern '%s'" % (self.line, text))

    def matches(self, d):
        return all(test(d) for test in self.tests)


def read_decisions(path):
    rows, problems = [], []
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            problems.append("%s:%d: %d fields, not 5" % (path, number,
                                                          len(fields)))
            continue
        try:
            row = Row(number, fields)
        except (ValueError, re.error) as e:
            problems.append("%s:%d: %s" % (path, number, e))
            continue
        if row.decision not in DECISION_NAMES:
            problems.append("%s:%d: decision '%s' is none of %s" % (
                path, number, row.decision, ", ".join(DECISION_NAMES)))
        if row.decision == "tolerated":
            if not row.exact:
                problems.append("%s:%d: a tolerated row names one diagnostic,"
                                " not a pattern" % (path, number))
        elif (row.how, row.languages) != ("-", "-"):
            problems.append("%s:%d: only a tolerated row says how and where"
                            % (path, number))
        rows.append(row)
    return rows, problems


def decide(errors, rows):
    """Each default error's row: its exact name's, else the first pattern
    row that matches it; None if none does."""
    exact = {r.match: r for r in rows if r.exact}
    patterns = [r for r in rows if not r.exact]
    decided = {}
    for d in errors:
        row = exact.get(d["name"])
        if row is None:
            row = next((r for r in patterns if r.matches(d)), None)
        if row is not None:
            row.decided.append(d)
        decided[d["name"]] = row
    return decided


def read_accepted(path):
    """NvccAcceptedDiagnostics.def: name -> (how, languages)."""
    accepted = {}
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"^NVCC_ACCEPTED\((\w+),\s*(\w+),\s*([\w |]+)\)",
                         text, re.M):
        name, how, languages = m.groups()
        accepted[name] = (HOW[how], ",".join(sorted(
            LANGUAGES[l.strip()] for l in languages.split("|"))))
    return accepted


def check(args):
    diagnostics = read_tables(include_dir(args.include_dir))
    errors = default_errors(diagnostics)
    rows, problems = read_decisions(args.decisions)
    decided = decide(errors, rows)
    names = {d["name"] for d in errors}
    for d in errors:
        if decided[d["name"]] is None:
            problems.append("%s (%s, %s: \"%s\") is an error by default and "
                            "no row decides it" % (
                                d["name"], d["file"], d["class"],
                                d["message"][:80]))
    for row in rows:
        if row.exact and row.match not in names:
            problems.append("%s:%d: '%s' is no diagnostic clang makes an "
                            "error by default" % (args.decisions, row.line,
                                                  row.match))
        elif not row.decided:
            problems.append("%s:%d: '%s' decides no diagnostic (an earlier "
                            "row, or none, matches what it would)" % (
                                args.decisions, row.line, row.match))
    accepted = read_accepted(args.accepted)
    tolerated = {r.match: (r.how, ",".join(sorted(r.languages.split(","))))
                 for r in rows if r.decision == "tolerated"}
    for name in sorted(set(accepted) | set(tolerated)):
        if accepted.get(name) != tolerated.get(name):
            problems.append(
                "%s: NvccAcceptedDiagnostics.def says %s, the decisions say "
                "%s" % (name, accepted.get(name, "nothing"),
                        tolerated.get(name, "nothing")))
    counts = {}
    for d in errors:
        row = decided[d["name"]]
        kind = "hard errors" if d["class"] == "error" else \
            "DefaultError warnings and extensions"
        key = (kind, row.decision if row else "undecided")
        counts[key] = counts.get(key, 0) + 1
    for kind in ("hard errors", "DefaultError warnings and extensions"):
        total = sum(n for (k, _), n in counts.items() if k == kind)
        print("%s: %d (%s)" % (kind, total, ", ".join(
            "%s %d" % (decision, counts[(k, decision)])
            for (k, decision) in sorted(counts) if k == kind)))
    for p in problems:
        print("default-errors.py: " + p, file=sys.stderr)
    return 1 if problems else 0


def list_decisions(args):
    diagnostics = read_tables(include_dir(args.include_dir))
    errors = default_errors(diagnostics)
    rows, _ = read_decisions(args.decisions)
    decided = decide(errors, rows)
    for d in sorted(errors, key=lambda d: (d["file"], d["name"])):
        row = decided[d["name"]]
        print("\t".join([d["name"], d["file"], d["class"],
                         row.decision if row else "undecided",
                         row.match if row else "-"]))
    return 0


def header(path, key):
    """The '/* KEY: ... */' line of an input, if it has one."""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\s*(?://|/\*)\s*%s:\s*(.*?)\s*(\*/)?$" % key, line)
        if m:
            return m.group(1)
    return None


def header_args(path):
    """The 'args:' line of an input: what the tool's command and the
    compilers add for it."""
    return (header(path, "args") or "").split()


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def check_input(args, name, language, path):
    """The problems of one input, if any."""
    extra = header_args(path)
    lint = shlex.split(args.lint) + ["--format=json", path, "--"]
    if language == "cuda":
        lint += ["-x", "cuda", "-std=c++17"]
    elif language == "c++":
        lint += ["-x", "c++", "-std=c++17"]
    else:
        lint += ["-x", "c"]
    lint += extra
    out = run(lint)
    if out.returncode != 1:
        return "%s: the tool exits %d, not 1 (analysed, a finding):\n%s" % (
            path, out.returncode, out.stderr)
    report = json.loads(out.stdout)
    if not report["findings"]:
        return "%s: no finding reported" % path
    tolerated = [d["name"] for t in report.get("toleratedErrors", [])
                 for d in t.get("diagnostics", [])]
    # An input says 'unlisted:' (and why) for a diagnostic that clang
    # reports only through its analysis-based warnings, which -w skips.
    if name not in tolerated and header(path, "unlisted") is None:
        return "%s: '%s' is not among the diagnostics tolerated (%s)" % (
            path, name, ", ".join(tolerated) or "none")
    genuine = run(lint + ["-DGENUINE_ERROR"])
    if genuine.returncode != 3:
        return "%s: with -DGENUINE_ERROR the tool exits %d, not 3" % (
            path, genuine.returncode)
    include = ["-I", args.cuda_include] if args.cuda_include else []
    with tempfile.TemporaryDirectory() as tmp:
        object_file = os.path.join(tmp, "input.o")
        if language == "cuda" and args.nvcc and shutil.which(args.nvcc):
            compile_ = [args.nvcc, "-c", "-arch=sm_90", "-std=c++17", path,
                        "-o", object_file] + extra
        elif language == "c++" and args.gxx and shutil.which(args.gxx):
            compile_ = [args.gxx, "-std=c++17", "-c", path, "-o",
                        object_file] + include + extra
        elif language == "c" and args.gcc and shutil.which(args.gcc):
            compile_ = [args.gcc, "-c", path, "-o", object_file] + include \
                + extra
        else:
            return None
        out = run(compile_)
        if out.returncode != 0:
            return "%s: %s rejects it:\n%s" % (path, compile_[0], out.stderr)
    return None


def inputs(args):
    accepted = read_accepted(args.accepted)
    problems = []
    jobs = []
    for name, (_, languages) in sorted(accepted.items()):
        for language in languages.split(","):
            path = os.path.join(INPUTS, name + EXTENSION[language])
            if not os.path.exists(path):
                problems.append("%s: no input for %s (%s)" % (name, language,
                                                              path))
                continue
            jobs.append((name, language, path))
    # Each input is linted twice and compiled once, independently of the
    # others: as many at once as there are cores, reported in input order.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        results = list(pool.map(lambda job: check_input(args, *job), jobs))
    checked = len(jobs)
    problems += [p for p in results if p]
    print("%d inputs of %d tolerated diagnostics checked" % (checked,
                                                             len(accepted)))
    for p in problems:
        print("default-errors.py: " + p, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("command", choices=("check", "list", "inputs"))
    parser.add_argument("--include-dir",
                        help="clang's include directory (llvm-config "
                             "--includedir)")
    parser.add_argument("--decisions", default=DECISIONS)
    parser.add_argument("--accepted", default=ACCEPTED)
    parser.add_argument("--lint", help="cuda-async-lint and its options, "
                                       "for 'inputs'")
    parser.add_argument("--gcc", default="gcc-12")
    parser.add_argument("--gxx", default="g++-12")
    parser.add_argument("--nvcc", default="")
    parser.add_argument("--cuda-include",
                        help="where gcc and g++ find cuda_runtime.h")
    args = parser.parse_args()
    if args.command == "check":
        return check(args)
    if args.command == "list":
        return list_decisions(args)
    if not args.lint:
        parser.error("'inputs' needs --lint")
    return inputs(args)


if __name__ == "__main__":
    sys.exit(main())
