#!/usr/bin/env python3
"""What tracing and race detection cost, from scripts/gpu-trace.sh's overhead
part (PARTS=overhead), as Markdown.

Usage: scripts/race-cost.py ARCHIVE.tar.gz|RAW_DIR

Reads raw/overhead-MODE-N.json (the runtime verifier's reference pipeline:
its fixed pageable-copy variants, 20 timed runs each), raw/copies-BYTES-
MODE-N.txt (small_copies: host time per copy) and raw/cost.NAME.MODE.PID.json
(the raw traces: where the race detector's time went), for the modes plain,
traced, races (--races) and races-full (--races=full), three processes
each. Prints the medians, the ratios the goals are stated in (race
detection within 5% of untraced wall time on the pipeline, within 1.5x
traced per copy), the detector's costs per copy, and what of the time
it adds to a copy it does not measure itself.
docs/runtime-trace.md records its output.
"""
import glob
import json
import os
import re
import statistics
import sys
import tarfile
import tempfile

MODES = ["plain", "traced", "races", "races-full"]


def raw_dir(path):
    if os.path.isdir(path):
        return os.path.join(path, "raw") if os.path.isdir(
            os.path.join(path, "raw")) else path
    work = tempfile.mkdtemp(prefix="race-cost.")
    with tarfile.open(path) as t:
        t.extractall(work, filter="data")
    return os.path.join(work, "raw")


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def pipeline_wall(raw, mode):
    walls = []
    for f in glob.glob(os.path.join(raw, "overhead-%s-[0-9]*.json" % mode)):
        with open(f) as h:
            for check in json.load(h)["checks"]:
                for v in check["variants"]:
                    if "wall_ms" in v:
                        walls.append(v["wall_ms"]["median"])
    return walls


def per_copy(raw, size, mode):
    us = []
    for f in glob.glob(os.path.join(raw,
                                    "copies-%s-%s-[0-9]*.txt" % (size, mode))):
        with open(f) as h:
            m = re.search(r"per_copy_us ([0-9.]+)", h.read())
            if m:
                us.append(float(m.group(1)))
    return us


def detector_costs(raw, name, mode):
    """Summed over the mode's processes: copies watched and the costs."""
    total = {"watched": 0, "handlerChecks": 0, "handlerCheckNs": 0,
             "lockWaitNs": 0, "bytesNeverWatched": 0}
    parts = {k: [0, 0] for k in ["atIssue", "atLift", "inHandlers"]}
    for f in glob.glob(os.path.join(raw, "cost.%s.%s.*.json" % (name, mode))):
        with open(f) as h:
            rd = json.load(h).get("process", {}).get("raceDetection")
        if not rd or "costs" not in rd:
            continue
        total["watched"] += rd["watchedCopies"]
        costs = rd["costs"]
        for k in parts:
            parts[k][0] += costs[k]["calls"]
            parts[k][1] += costs[k]["ns"]
        for k in ["handlerChecks", "handlerCheckNs", "lockWaitNs",
                  "bytesNeverWatched"]:
            total[k] += costs[k]
    return total, parts


def summary(raw):
    """The Markdown lines of the summary of RAW (a raw/ directory), or []
    when it holds no overhead part."""
    if not glob.glob(os.path.join(raw, "overhead-*.json")):
        return []
    device = ""
    if os.path.exists(os.path.join(raw, "device.txt")):
        with open(os.path.join(raw, "device.txt")) as h:
            device = h.read().strip().splitlines()[0]
    out = ["Device: %s" % device, "",
           "| measure | untraced | traced | --races | --races=full |",
           "| --- | --- | --- | --- | --- |"]
    walls = {m: median(pipeline_wall(raw, m)) for m in MODES}
    out.append("| reference pipeline, wall ms per run | " + " | ".join(
        "%.3f" % walls[m] for m in MODES) + " |")
    out.append("| ... against untraced | 1.00 | " + " | ".join(
        "%+.1f%%" % (100 * (walls[m] / walls["plain"] - 1))
        for m in MODES[1:]) + " |")
    for size, label in [("4096", "4 KiB"), ("67108864", "64 MiB")]:
        us = {m: median(per_copy(raw, size, m)) for m in MODES}
        out.append("| %s copies, host us per copy | " % label + " | ".join(
            "%.2f" % us[m] for m in MODES) + " |")
        out.append("| ... against traced | | 1.00 | " + " | ".join(
            "%.2fx" % (us[m] / us["traced"]) for m in MODES[2:]) + " |")
    out += ["", "The race detector's costs per watched copy (us; summed over "
            "the processes, then divided):", "",
            "| run | mode | copies | protect at issue | lift at the wait | "
            "SIGSEGV handler checks | lock waits | KiB never watched |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name in ["pipeline", "copies-4096", "copies-67108864"]:
        for mode in ["races", "races-full"]:
            t, p = detector_costs(raw, name, mode)
            n = t["watched"]
            if not n:
                continue

            def part(k):
                return "%.2f (%.2f calls)" % (p[k][1] / 1e3 / n, p[k][0] / n)
            out.append("| %s | %s | %d | %s | %s | %.2f (%.2f) | %.2f | "
                       "%.0f |" % (
                           name, mode, n, part("atIssue"), part("atLift"),
                           t["handlerCheckNs"] / 1e3 / n,
                           t["handlerChecks"] / n, t["lockWaitNs"] / 1e3 / n,
                           t["bytesNeverWatched"] / 1024 / n))
    out += ["", "Where the time race detection adds to a copy goes (us per "
            "copy: the medians' difference, the detector's own measure of "
            "its calls, and the rest, which it cannot time: each mprotect "
            "empties the TLB of the thread that goes on, tracer/probes/"
            "README.md):", "",
            "| run | mode | added to traced | measured by the detector | "
            "elsewhere |",
            "| --- | --- | --- | --- | --- |"]
    # Only where a copy's host time is small: a 64 MiB copy's own time
    # varies by more than the detector adds.
    for size in ["4096"]:
        traced = median(per_copy(raw, size, "traced"))
        for mode in ["races", "races-full"]:
            t, p = detector_costs(raw, "copies-" + size, mode)
            n = t["watched"]
            if not n:
                continue
            added = median(per_copy(raw, size, mode)) - traced
            own = (sum(ns for _, ns in p.values()) + t["handlerCheckNs"] +
                   t["lockWaitNs"]) / 1e3 / n
            out.append("| copies-%s | %s | %.2f | %.2f | %.2f |" % (
                size, mode, added, own, added - own))
    return out


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = summary(raw_dir(argv[0]))
    if not lines:
        print("%s: no overhead-*.json (run gpu-trace.sh with "
              "PARTS=overhead)" % argv[0], file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
