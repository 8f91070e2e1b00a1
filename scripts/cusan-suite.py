#!/usr/bin/env python3
"""The linter on CuSan's test suite: races kernels make, found statically.

  scripts/cusan-suite.py CUSAN_CHECKOUT [-o RESULTS.json] [--lint PATH]

CUSAN_CHECKOUT is a checkout of github.com/ahueck/cusan (docs/kernel-races.md
names the commit); nothing of it is in this repository. Each program of its
test/pass/ is linted twice, as its own RUN lines build it (`-x cuda`, MPI's
include paths from `mpicc --showme:compile`): as written, and with
-DCUSAN_SYNC, which adds the missing synchronization. A program whose checks
expect a data race (`// CHECK-DAG: data race` or `// CHECK: data race`) is
found when the first lint has a cuda-async-unsynchronized-access finding;
the second lint, and both lints of a race-free program, must have none.
Findings of the other checks are listed too: each must be true of the code
(docs/kernel-races.md reads them). Exits 1 if the lint cannot be run.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RACE = "cuda-async-unsynchronized-access"


def mpi_flags():
    try:
        out = subprocess.run(["mpicc", "--showme:compile"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        sys.exit("cusan-suite: mpicc not found: install libopenmpi-dev "
                 "(CuSan's MPI programs include mpi.h)")
    return shlex.split(out)


def lint(lint_path, source, flags):
    proc = subprocess.run([lint_path, "--format=json", source, "--", "-x",
                           "cuda"] + flags, capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        sys.exit("cusan-suite: %s on %s gave no report:\n%s" %
                 (lint_path, source, proc.stderr[-2000:]))
    if report.get("errors"):
        return None
    return [{"check": f["check"], "line": f["location"]["line"],
             "message": f["message"]} for f in report["findings"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("-o", "--output")
    ap.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                   "cuda-async-lint"))
    args = ap.parse_args()
    suite = os.path.join(args.checkout, "test", "pass")
    if not os.path.isdir(suite):
        sys.exit("cusan-suite: %s has no test/pass/" % args.checkout)
    flags = mpi_flags()
    results = []
    for name in sorted(os.listdir(suite)):
        if not name.endswith(".c"):
            continue
        path = os.path.join(suite, name)
        text = open(path, encoding="utf-8").read()
        race = re.search(r"^// CHECK(-DAG)?: data race", text, re.M) is not None
        has_sync = "-DCUSAN_SYNC" in text
        written = lint(args.lint, path, flags)
        synced = lint(args.lint, path, flags + ["-DCUSAN_SYNC"]) \
            if has_sync else []
        results.append({"program": name, "race": race, "sync_variant": has_sync,
                        "written": written, "synced": synced})

    def races(findings):
        return [f for f in findings or [] if f["check"] == RACE]

    found = false_written = false_synced = unparsed = 0
    for r in results:
        if r["written"] is None or r["synced"] is None:
            unparsed += 1
        hit = races(r["written"])
        if r["race"] and hit:
            found += 1
        if not r["race"] and hit:
            false_written += 1
        if races(r["synced"]):
            false_synced += 1
        mark = ("found" if hit else "MISSED") if r["race"] else \
            ("FALSE" if hit else "clean")
        lines = " ".join("%s:%d" % (f["check"].replace("cuda-async-", ""),
                                    f["line"]) for f in r["written"] or [])
        sync_lines = " ".join("%s:%d" % (f["check"].replace("cuda-async-", ""),
                                         f["line"]) for f in r["synced"] or [])
        print("%-58s %-6s | %s | sync: %s" % (r["program"], mark, lines or "-",
                                              sync_lines or "-"))
    total = sum(r["race"] for r in results)
    print("\nrace programs found: %d of %d; race findings on race-free "
          "programs: %d; on -DCUSAN_SYNC variants: %d; not parsed: %d" %
          (found, total, false_written, false_synced, unparsed))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
