#!/usr/bin/env python3
"""Finishes the traces scripts/gpu-trace.sh recorded on a GPU machine and
joins them with the linter's findings: docs/runtime-trace/.

  scripts/runtime-trace.py gpu-trace.tar.gz [--build build]
                           [--out docs/runtime-trace]

For each traced program: NAME.trace.json (cuda-async-trace --finish, the
programs' DWARF from the archive); for the examples and test/tracer/gpu's
program, NAME.lint.json (cuda-async-lint --runtime-trace, JSON) and
pipeline_malloc.html; for the verifier, the runtime findings of its buggy
and of its fixed variants; the tracer's overhead on the reference pipeline.
README.md in OUTDIR is the summary, rewritten by each run.
"""
import argparse
import collections
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Program -> the source the linter analyses (relative to ROOT).
SOURCES = {
    "driver_api_upload": "examples/driver_api_upload.cu",
    "host_staging": "examples/host_staging.cpp",
    "pinned_frame": "examples/pinned_frame.cu",
    "pipeline_malloc": "examples/pipeline_malloc.cu",
    "pipeline_pinned": "examples/pipeline_pinned.cu",
    "registered_staging": "examples/registered_staging.cu",
    "opaque_staging": "test/tracer/Inputs/gpu/opaque_staging.cu",
    "opaque_race": "test/tracer/Inputs/gpu/opaque_race.cu",
    "graph_copies": "test/tracer/Inputs/gpu/graph_copies.cu",
    "pitched_copies": "test/tracer/Inputs/gpu/pitched_copies.cu",
    "devices_threads": "test/tracer/Inputs/gpu/devices_threads.cu",
}
HTML_REPORT = "pipeline_malloc"


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def overhead(raw_dir):
    """The overhead section: scripts/race-cost.py's summary of the overhead
    part (untraced, traced, --races, --races=full)."""
    spec = importlib.util.spec_from_file_location(
        "race_cost", os.path.join(ROOT, "scripts", "race-cost.py"))
    race_cost = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(race_cost)
    lines = race_cost.summary(raw_dir)
    if not lines:
        return []
    return ["## Overhead", "",
            "Three processes per mode, alternating, as `scripts/race-cost.py "
            "ARCHIVE` summarizes them (docs/runtime-trace.md, \"What it "
            "watches, and what it costs\", says what each part is).",
            ""] + lines + [""]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs",
                                                      "runtime-trace"))
    args = parser.parse_args()
    trace_tool = os.path.join(args.build, "bin", "cuda-async-trace")
    lint = os.path.join(args.build, "bin", "cuda-async-lint")
    os.makedirs(args.out, exist_ok=True)
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(args.archive) as tar:
            tar.extractall(tmp)
        raw_dir, bin_dir = os.path.join(tmp, "raw"), os.path.join(tmp, "bin")
        device = open(os.path.join(raw_dir, "device.txt")).read().strip()
        groups = collections.defaultdict(list)
        for path in sorted(glob.glob(os.path.join(raw_dir, "*.raw.json"))):
            name = re.sub(r"\.\d+\.raw\.json$", "", os.path.basename(path))
            groups[name].append(path)

        traces = {}
        for name, raws in sorted(groups.items()):
            out = os.path.join(args.out, name + ".trace.json")
            done = run([trace_tool, "--finish", "--quiet", "--symbols",
                        bin_dir, "-o", out] + raws)
            if done.returncode != 0:
                sys.exit("cuda-async-trace --finish %s: %s" %
                         (name, done.stderr))
            with open(out) as f:
                traces[name] = json.load(f)

        # The examples and the opaque program: the join.
        rows = []
        for name, source in SOURCES.items():
            if name not in traces:
                continue
            trace = os.path.join(args.out, name + ".trace.json")
            report = os.path.join(args.out, name + ".lint.json")
            base = [lint, "--use-bundled-cuda", "--source-root", ROOT,
                    "--runtime-trace", os.path.relpath(trace, ROOT),
                    os.path.join(ROOT, source)]
            done = run(base + ["--format=json", "-o", report], cwd=ROOT)
            if done.returncode not in (0, 1):
                sys.exit("cuda-async-lint %s: %s" % (source, done.stderr))
            if name == HTML_REPORT:
                run(base + ["--format=html", "-o",
                            os.path.join(args.out, name + ".html")], cwd=ROOT)
            with open(report) as f:
                findings = json.load(f)["findings"]
            states = collections.Counter(f["runtime"]["status"]
                                         for f in findings)
            crashed = [p for p in traces[name]["processes"] if p["signal"]]
            rows.append("| %s | %d | %d | %d | %d | %d | %s |" % (
                source, sum(v for k, v in states.items()
                            if k != "found-at-run-time"),
                states["confirmed"], states["exercised"],
                states["not-exercised"], states["found-at-run-time"],
                "signal %d at line %d" % (crashed[0]["signal"],
                                          crashed[0]["crash"]["line"])
                if crashed else ""))
        summary += [
            "## The examples, joined", "",
            "`cuda-async-lint --runtime-trace NAME.trace.json SOURCE`: the "
            "static findings by state, and the findings only the run shows "
            "(NAME.lint.json).", "",
            "| source | static findings | confirmed | exercised | "
            "not exercised | found at run time | crash |",
            "| --- | --- | --- | --- | --- | --- | --- |"] + rows + [""]

        # The verifier's variants: buggy against fixed.
        rows = []
        for name in sorted(traces):
            m = re.match(r"verify-(.*)-(buggy|fixed)$", name)
            if not m:
                continue
            findings = traces[name]["findings"]
            checks = collections.Counter(f["checkId"] for f in findings)
            rows.append("| cuda-async-%s | %s | %d | %s |" % (
                m.group(1), m.group(2), len(findings),
                ", ".join("%s x%d" % (k, v) for k, v in sorted(checks.items()))
                or ""))
        summary += [
            "## The runtime verifier's variants", "",
            "`cuda-async-verify --checks C --variants buggy|fixed` traced "
            "(verify-C-ROLE.trace.json): the runtime findings of each run. "
            "The fixed variants must have none. The default-stream buggy "
            "variant puts the whole pipeline on the legacy stream, which the "
            "host waits for before any work on a created stream: by the "
            "check's contract (docs/checks/cuda-async-default-stream.md, "
            "'Not reported') that is no finding, at run time as "
            "statically.", "",
            "| check | variants | runtime findings | by check |",
            "| --- | --- | --- | --- |"] + rows + [""]

        summary += overhead(raw_dir)
    header = [
        "# Recorded runtime traces", "",
        "Recorded on %s by `scripts/gpu-trace.sh` (on the GPU machine) and "
        "`scripts/runtime-trace.py` (here, with LLVM); "
        "docs/runtime-trace.md explains the tracer and the join." % device,
        ""]
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write("\n".join(header + summary))
    print("\n".join(header + summary))


if __name__ == "__main__":
    main()
