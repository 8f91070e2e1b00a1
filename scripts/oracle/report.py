"""Tables of `oracle.py report`: per check and per repository, the mutants
made, built, run, confirmed at run time and found statically, from
.oracle/mutants.jsonl, docs/oracle/results.jsonl and
docs/oracle/comparison.json; then every miss, for reading."""
import collections
import json
import os

from mutate import CHECKS
from oracle import STATE, load_manifest, load_results, program_id
from compare import COMPARISON


def table(rows, header):
    out = ["| " + " | ".join(header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def main(opts):
    manifest = load_manifest()
    repo_of = {p["name"]: p["repo"] for p in manifest["programs"]}
    results = load_results()
    with open(os.path.join(STATE, "mutants.jsonl")) as f:
        mutants = [json.loads(line) for line in f]
    with open(COMPARISON) as f:
        comparison = json.load(f)

    pristine = {p["name"]: results.get(program_id(p))
                for p in manifest["programs"]}
    runnable = {n for n, r in pristine.items()
                if r and r.get("status") == "ran" and r["exit"] == 0}
    by = {"check": collections.defaultdict(collections.Counter),
          "repo": collections.defaultdict(collections.Counter)}

    def count(check, repo, what):
        by["check"][check][what] += 1
        by["repo"][repo][what] += 1

    for m in mutants:
        rec = results.get(m["id"])
        repo = repo_of.get(m["program"], "?")
        count(m["check"], repo, "made")
        if rec is None:
            continue
        if rec.get("status") == "build-failed":
            count(m["check"], repo, "build failed")
            continue
        count(m["check"], repo, "run")
    for r in comparison["mutants"]:
        repo = repo_of.get(r["program"], "?")
        for check, found in r["found"].items():
            count(check, repo, "confirmed")
            if found:
                count(check, repo, "found")

    cols = ["made", "build failed", "run", "confirmed", "found"]

    def rows(kind):
        out = []
        for name in sorted(by[kind]):
            c = by[kind][name]
            recall = "%.2f" % (c["found"] / c["confirmed"]) \
                if c["confirmed"] else "-"
            out.append([name] + [c[k] for k in cols] + [recall])
        total = collections.Counter()
        for c in by[kind].values():
            total.update(c)
        out.append(["**all**"] + [total[k] for k in cols] + [
            "%.2f" % (total["found"] / total["confirmed"])
            if total["confirmed"] else "-"])
        return out

    print("Programs: %d in the manifest over %d repositories, %d run to "
          "their end unmutated.\n" % (
              len(manifest["programs"]), len(set(repo_of.values())),
              len(runnable)))
    print("Per check (a mutant counts under each check its run confirmed; "
          "'made' and 'run' under the check its edit aims at):\n")
    print(table(rows("check"), ["check"] + cols + ["recall"]))
    print("\nPer repository:\n")
    print(table(rows("repo"), ["repository"] + cols + ["recall"]))
    print("\nMisses (confirmed at run time, not reported statically):\n")
    misses = []
    for r in sorted(comparison["mutants"], key=lambda r: (r["program"],
                                                          r["line"])):
        for check, found in sorted(r["found"].items()):
            if found:
                continue
            where = ", ".join("%s:%d" % (os.path.basename(f["file"]),
                                          f["line"])
                              for f in r["runtime"] if f["check"] == check)
            misses.append([r["id"], r["program"], r["kind"],
                           "%s:%d" % (os.path.basename(r["file"]),
                                      r["line"]),
                           check.replace("cuda-async-", ""), where])
    print(table(misses, ["mutant", "program", "edit", "at", "check",
                         "runtime finding"]) if misses else "none")
    assert set(CHECKS.values()) >= {m["check"] for m in mutants}
    return 0
