#!/usr/bin/env python3
"""Tabulates recorded cuda-async-verify runs side by side (Markdown).

Usage: scripts/verifier-stability.py RUN_DIR... (each holding results.json,
schema cuda-async-verify/2, and nvidia-smi.csv)

For each run: the GPU, the verdicts (passed / inconclusive / failed) and, for
every fixed variant of an overlap check, its efficiency with the interval
that decided it and the ideal from the stages measured together against the
one from the stages alone. docs/runtime-verifier.md records its output.
"""
import json
import os
import sys


def gpu(run):
    try:
        with open(os.path.join(run, "nvidia-smi.csv")) as f:
            return f.read().splitlines()[1].split(",")[0].strip()
    except (OSError, IndexError):
        return "?"


def main(runs):
    if not runs:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print("| run | GPU | verdicts | fixed variants: efficiency (interval) "
          "| ideal together / alone (ms) |")
    print("| --- | --- | --- | --- | --- |")
    for run in runs:
        try:
            with open(os.path.join(run, "results.json")) as f:
                r = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{run}: cannot read results.json: {e}", file=sys.stderr)
            return 1
        if r.get("schema") != "cuda-async-verify/2":
            print(f"{run}: not a cuda-async-verify/2 report", file=sys.stderr)
            return 1
        effs, ideals = [], []
        for check in r["checks"]:
            for v in check["variants"]:
                if v["role"] != "fixed" or "overlap_efficiency" not in v:
                    continue
                i = v["overlap_efficiency_interval"]
                effs.append("%.0f%% (%.0f-%.0f%%)" %
                            (100 * v["overlap_efficiency"], 100 * i["low"],
                             100 * i["high"]))
                ideals.append("%.2f/%.2f" % (v["ideal_ms"],
                                             v["ideal_alone_ms"]))
        attempts = sum(c["attempts"] > 1 for c in r["checks"])
        verdicts = "%d passed, %d inconclusive, %d failed" % (
            r["passed"], r["inconclusive"], r["failed"])
        if attempts:
            verdicts += "; %d measured again" % attempts
        print("| %s | %s | %s | %s | %s |" %
              (os.path.basename(os.path.normpath(run)), gpu(run), verdicts,
               ", ".join(effs), ", ".join(ideals)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
