"""The linter against the run: `oracle.py compare`.

A mutant is confirmed when its run has a runtime finding (check, file,
line) that the pristine program's run does not have (a registration left
at exit counts only when the mutant exits as the pristine program does:
a program that stops on an error leaves what it registered). It is found, for that
check, when the linter reports the same check on the mutant within WINDOW
lines of the runtime finding or of the edit, linting the edited file on its
own (as an editor does) or the program's units together (-p, as a CI run
with the project's database does). The pristine programs are linted too:
every static finding on them is to be read.

--only REGEX compares again only the programs whose names match (their
mutants and their pristine lint) with --lint, and carries every other
record of docs/oracle/comparison.json over as it was made: on a machine
whose cores are taken, the programs just added are compared without
linting the whole corpus again. The file then names both linters
("lint" for the carried records, "only" for the REGEX's).
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

from mutate import apply
from oracle import (ROOT, STATE, compile_flags, finding_key as key,
                    load_manifest, load_results, program_id, read, write)

WINDOW = 3
# Runtime findings derived at the process's exit.
EXIT_CHECKS = {"cuda-async-host-register-leak"}
COMPARISON = os.path.join(ROOT, "docs", "oracle", "comparison.json")


def lint_flags(p, repo):
    """nvcc's flags of `p` as clang takes them."""
    flags, skip, stream = [], False, False
    for f in compile_flags(p, repo):
        if skip:
            skip = False
            if f.startswith("-f"):
                flags.append(f)  # -Xcompiler -fopenmp
            continue
        if stream:
            stream = False
            f = "--default-stream=" + f
        if f in ("-Xcompiler", "-Xlinker", "--compiler-options"):
            skip = True
        elif f in ("--default-stream", "-default-stream"):
            stream = True
        elif f.lstrip("-") == "default-stream=per-thread":
            # What nvcc defines for it: the _ptsz/_ptds API spellings.
            flags.append("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1")
        elif f.startswith(("-I", "-D", "-std=", "-U")):
            flags.append(f)
    return flags


def findings_of(out, repo, rename):
    try:
        report = json.loads(out)
    except ValueError:
        return None
    def where(location):
        path = os.path.relpath(os.path.realpath(location["file"]),
                               os.path.realpath(repo))
        return rename.get(path, path), location["line"]

    found = []
    for f in report.get("findings", []):
        file, line = where(f["location"])
        finding = {"check": f["check"], "file": file, "line": line,
                   "message": f["message"][:200]}
        # The lines its notes name: where a callee touches the buffer
        # ("'x' is read here", the line a run's race detector shows), the
        # copy a call hands pageable memory to, the allocation.
        notes = [where(n["location"]) for n in f.get("notes", [])]
        if notes:
            finding["notes"] = [{"file": a, "line": b} for a, b in notes]
        found.append(finding)
    return found


def lint_file(lint, p, repo, path, rename):
    args = [lint, "--format=json", "-j", "1", path, "--"] + \
        lint_flags(p, repo)
    proc = subprocess.run(args, cwd=repo, capture_output=True, text=True,
                          timeout=600)
    return findings_of(proc.stdout, repo, rename)


def lint_program(lint, p, repo, paths, rename):
    scratch = tempfile.mkdtemp(prefix="oracle-db-")
    try:
        db = []
        for path in paths:
            args = ["clang++", "-std=c++17", "-c", path] + lint_flags(p, repo)
            if path.endswith(".cu"):
                args[1:1] = ["-x", "cuda"]
            db.append({"directory": repo, "file": path, "arguments": args})
        with open(os.path.join(scratch, "compile_commands.json"), "w") as f:
            json.dump(db, f)
        proc = subprocess.run([lint, "--format=json", "-j", "1", "-p",
                               scratch] + paths, cwd=repo,
                              capture_output=True, text=True, timeout=1200)
        return findings_of(proc.stdout, repo, rename)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def near(static, runtime, edit):
    """Whether a static finding is the runtime one: the same check within
    WINDOW lines of the run's line or of the edit, at the finding's line or
    at a line one of its notes names (a finding at a call names the copy
    or the access in the callee, and the allocation)."""
    def close(at, to):
        return at["file"] == to["file"] and \
            abs(at["line"] - to["line"]) <= WINDOW
    return any(s["check"] == runtime["check"] and any(
        close(at, runtime) or close(at, edit)
        for at in [s] + s.get("notes", []))
        for s in static or [])


def lint_mutant(lint, p, m):
    repo = os.path.join(STATE, "bundle", p["repo"])
    base, ext = os.path.splitext(m["file"])
    copy = "%s.oracle-%s%s" % (base, m["id"], ext)
    write(os.path.join(repo, copy),
          apply(read(os.path.join(repo, m["file"])), m["edits"]))
    rename = {copy: m["file"]}
    try:
        alone = lint_file(lint, p, repo, copy, rename)
        together = None
        if len(p["sources"]) > 1:
            together = lint_program(lint, p, repo, [
                copy if s == m["file"] else s for s in p["sources"]], rename)
        return alone, together
    finally:
        os.remove(os.path.join(repo, copy))


def lint_pristine(lint, p):
    repo = os.path.join(STATE, "bundle", p["repo"])
    found = []
    for s in p["sources"]:
        found += lint_file(lint, p, repo, s, {}) or []
    return found


def main(opts):
    manifest = load_manifest()
    programs = {p["name"]: p for p in manifest["programs"]}
    results = load_results()
    mutants = {}
    with open(os.path.join(STATE, "mutants.jsonl")) as f:
        for line in f:
            m = json.loads(line)
            mutants[m["id"]] = m
    previous = {}
    old = {}
    if os.path.exists(COMPARISON):
        with open(COMPARISON) as f:
            old = json.load(f)
        previous = {r["id"]: r for r in old.get("mutants", [])}
        lint_version = old.get("lint")
    else:
        lint_version = None
    only = re.compile(opts.only) if getattr(opts, "only", None) else None
    # With --only, what the other programs had is kept as it was made.
    carried = {i: r for i, r in previous.items()
               if only and not only.search(r["program"])}
    # The version names the release, not the build: the binary's hash says
    # which linter made a cached comparison.
    version = subprocess.run([opts.lint, "--version"], capture_output=True,
                             text=True).stdout.strip()
    with open(opts.lint, "rb") as f:
        version += " sha256:" + hashlib.sha256(f.read()).hexdigest()[:16]
    if lint_version != version:
        previous = {}
    if only:
        previous.update(carried)

    pristine_runtime = {}
    for p in programs.values():
        rec = results.get(program_id(p))
        if rec and rec.get("findings") is not None:
            pristine_runtime[p["name"]] = rec

    jobs = []
    for rec in results.values():
        m = mutants.get(rec["id"])
        base = pristine_runtime.get(rec["program"])
        if m is None or base is None or rec.get("findings") is None:
            continue
        seen = {key(f) for f in base["findings"]}
        new = {key(f): f for f in rec["findings"] if key(f) not in seen}
        if rec["exit"] != base["exit"]:
            # Registrations left at an exit the mutant's failure brought
            # forward are the failure's, not a leak the edit made.
            new = {k: f for k, f in new.items()
                   if f["check"] not in EXIT_CHECKS}
        new = list(new.values())
        if new:
            jobs.append((m, new, rec))

    # Each mutant's comparison is kept as it is made: a run stopped
    # half-way resumes where it stopped.
    cache_path = os.path.join(STATE, "compare-cache.jsonl")
    if os.path.exists(cache_path):
        with open(cache_path) as f:
            for line in f:
                r = json.loads(line)
                if r.pop("lint", None) == version:
                    previous[r["id"]] = r
    cache = open(cache_path, "a")
    lock = threading.Lock()

    def one(job):
        m, new, rec = job
        if m["id"] in carried:
            return carried[m["id"]]
        if m["id"] in previous and previous[m["id"]]["runtime"] == new:
            return previous[m["id"]]
        result = compared_mutant(m, new)
        with lock:
            cache.write(json.dumps(dict(result, lint=version)) + "\n")
            cache.flush()
        return result

    def compared_mutant(m, new):
        alone, together = lint_mutant(opts.lint, programs[m["program"]], m)
        checks = sorted({f["check"] for f in new})
        return {"id": m["id"], "program": m["program"], "kind": m["kind"],
                "file": m["file"], "line": m["line"], "api": m["api"],
                "runtime": new, "alone": alone, "together": together,
                "found": {c: any(near(alone, f, m) or near(together, f, m)
                                 for f in new if f["check"] == c)
                          for c in checks}}

    with concurrent.futures.ThreadPoolExecutor(opts.j) as pool:
        compared = list(pool.map(one, sorted(jobs, key=lambda j: j[0]["id"])))
        names = sorted(n for n in programs if not only or only.search(n))
        pristine_static = dict(zip(names, pool.map(
            lambda n: lint_pristine(opts.lint, programs[n]), names)))
    for n in programs:
        if n not in pristine_static:
            pristine_static[n] = old.get("pristine", {}).get(
                n, {}).get("static")
    out = {"lint": lint_version if only else version, "window": WINDOW,
           "mutants": compared,
           "pristine": {n: {"static": pristine_static[n],
                            "runtime": pristine_runtime.get(n, {}).get(
                                "findings")} for n in sorted(programs)}}
    if only:
        out["only"] = {"programs": opts.only, "lint": version}
    with open(COMPARISON + ".tmp", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    os.replace(COMPARISON + ".tmp", COMPARISON)
    found = sum(all(r["found"].values()) for r in compared)
    print("compare: %d confirmed mutants, %d found for every check" % (
        len(compared), found))
    return 0
