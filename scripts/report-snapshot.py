#!/usr/bin/env python3
"""Snapshots the reports the linter writes, to show that a change that
should change no behaviour (a refactoring) changes no byte of them.

  scripts/report-snapshot.py write OUT [--lint build/bin/cuda-async-lint]
      Lints the benchmark corpus (examples/ and test/checks/, each file on
      its own, as scripts/benchmark.py does) and the whole-program inputs of
      the tests (test/Inputs/whole-program, test/Inputs/call-effects, as one
      program each, -j 1), in every output format, writing each report to
      OUT/<name>.<format> and the exit status and standard error beside it.
      Runs from the repository root, so that paths in reports are alike.

  scripts/report-snapshot.py compare BEFORE AFTER
      Lists the reports that differ between two snapshots; exit status 1
      if any does.

A refactoring is checked by `write before` on the old build, `write after`
on the new one, then `compare before after`.
"""
import argparse
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMATS = ["text", "json", "sarif", "markdown", "html", "rdjson",
           "codeclimate"]
PROGRAMS = ["whole-program", "call-effects"]


def corpus():
    return sorted(glob.glob(os.path.join(ROOT, "test", "checks", "*.cu")) +
                  glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                  glob.glob(os.path.join(ROOT, "examples", "*.cpp")))


# The run's wall time in the summary that ends standard error
# (driver/cli/RunSummary): the one part that differs from run to run.
RUN_TIME = re.compile(r"^(cuda-async-lint: .*; )[0-9]+\.[0-9] s", re.M)


def lint(argv, out, name):
    """Runs argv from the repository root; keeps its status and stderr."""
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    with open(os.path.join(out, name + ".status"), "w") as f:
        f.write("%d\n%s" % (proc.returncode,
                            RUN_TIME.sub(r"\1<time> s", proc.stderr)))


def write(args):
    os.makedirs(args.out, exist_ok=True)
    base = [args.lint, "--use-bundled-cuda", "--use-bundled-hip"]
    for path in corpus():
        rel = os.path.relpath(path, ROOT).replace(os.sep, "_")
        for fmt in FORMATS:
            name = "%s.%s" % (rel, fmt)
            lint(base + ["--format=" + fmt, "-o",
                         os.path.join(os.path.abspath(args.out), name), path],
                 args.out, name)
    # A fixed place, so that reports name the same files each time.
    fixed = os.path.join(tempfile.gettempdir(), "cuda-async-lint-snapshot")
    for program in PROGRAMS:
        root = os.path.join(fixed, program)
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "test", "Inputs", program), root)
        with open(os.path.join(root, "compile_commands.json.in")) as f:
            text = f.read().replace("@DIR@", root)
        with open(os.path.join(root, "compile_commands.json"), "w") as f:
            f.write(text)
        for fmt in FORMATS:
            name = "%s.%s" % (program, fmt)
            lint(base + ["-p", root, "-j", "1", "--format=" + fmt, "-o",
                         os.path.join(os.path.abspath(args.out), name)],
                 args.out, name)
    print("%d reports in %s" % (len(os.listdir(args.out)), args.out))
    return 0


def compare(args):
    before = set(os.listdir(args.before))
    after = set(os.listdir(args.after))
    differ = sorted(before ^ after)
    for name in sorted(before & after):
        if not filecmp.cmp(os.path.join(args.before, name),
                           os.path.join(args.after, name), shallow=False):
            differ.append(name)
    for name in differ:
        print("differs: " + name)
    print("%d of %d files alike" % (len(before & after) - len(
        [d for d in differ if d in before & after]), len(before | after)))
    return 1 if differ else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out")
    w.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                  "cuda-async-lint"))
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = parser.parse_args()
    return write(args) if args.command == "write" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
