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
import json
import os
import re
import statistics
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
}
HTML_REPORT = "pipeline_malloc"


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def overhead(raw_dir):
    """The overhead section: the reference pipeline's median time and
    small_copies' host time per copy, untraced, traced, and traced with
    race detection."""
    modes = ("plain", "traced", "races")
    times = collections.defaultdict(list)
    for path in glob.glob(os.path.join(raw_dir, "overhead-*.json")):
        mode = os.path.basename(path).split("-")[1]
        with open(path) as f:
            result = json.load(f)
        for check in result["checks"]:
            for v in check["variants"]:
                t = v["time_ms"]
                times[mode].append(t["median"] if isinstance(t, dict) else t)
    copies = collections.defaultdict(list)
    for path in glob.glob(os.path.join(raw_dir, "copies-*.txt")):
        _, size, mode, _ = os.path.basename(path)[:-4].split("-")
        m = re.search(r"per_copy_us ([0-9.]+)", open(path).read())
        if m:
            copies[(int(size), mode)].append(float(m.group(1)))
    if not all(times[m] for m in modes):
        return []
    pipeline = {m: statistics.median(times[m]) for m in modes}
    out = [
        "## Overhead", "",
        "Three processes per mode, alternating: untraced, traced "
        "(`cuda-async-trace`), traced with race detection "
        "(`cuda-async-trace --races`).", "",
        "| program | untraced | traced | with --races |",
        "| --- | --- | --- | --- |",
        "| the verifier's reference pipeline (4 streams, pinned memory, 8 "
        "batches of 32 MiB), median pipeline time | %.2f ms | %.2f ms "
        "(%+.1f%%) | %.2f ms (%+.1f%%) |" % (
            pipeline["plain"], pipeline["traced"],
            100 * (pipeline["traced"] / pipeline["plain"] - 1),
            pipeline["races"],
            100 * (pipeline["races"] / pipeline["plain"] - 1))]
    for size in sorted({k[0] for k in copies}):
        per = {m: statistics.median(copies[(size, m)])
               for m in modes if copies[(size, m)]}
        if len(per) < 3:
            continue
        out.append(
            "| small_copies, %s copies from and to pinned memory, host time "
            "per copy (median of the processes' means) | %.2f us | %.2f us "
            "(%+.2f us) | %.2f us (%+.2f us) |" % (
                "4 KiB" if size == 4096 else "%d MiB" % (size >> 20),
                per["plain"], per["traced"], per["traced"] - per["plain"],
                per["races"], per["races"] - per["plain"]))
    # The race detector's own account: its mprotect calls in the timed runs.
    cost = collections.defaultdict(lambda: [0, 0, 0])
    for path in glob.glob(os.path.join(raw_dir, "cost.*.races.*.json")):
        name = os.path.basename(path).split(".")[1]
        with open(path) as f:
            facts = json.load(f)["process"].get("raceDetection", {})
        c = cost[name]
        c[0] += facts.get("protectCalls", 0)
        c[1] += facts.get("protectBytes", 0)
        c[2] += facts.get("protectNs", 0)
    if cost:
        out += ["", "The race detector's mprotect calls in those runs "
                "(`raceDetection` in their raw traces):", "",
                "| program | calls | MiB covered | time | per call | "
                "per KiB |", "| --- | --- | --- | --- | --- | --- |"]
        for name in sorted(cost):
            calls, nbytes, ns = cost[name]
            if not calls:
                continue
            out.append("| %s | %d | %.0f | %.1f ms | %.1f us | %.1f ns |" % (
                name, calls, nbytes / 2**20, ns / 1e6, ns / calls / 1e3,
                ns / max(nbytes / 1024, 1)))
    return out + [""]


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
