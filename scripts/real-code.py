#!/usr/bin/env python3
"""Runs cuda-async-lint over a checkout of any repository, for triage.

Real-code precision and parse rate are measured on repositories the project
does not ship (docs/real-code.md): this script makes that triage repeatable on
every change without committing a line of their code.

  scripts/real-code.py run REPO -o RESULTS.json [-I DIR]... [-j N]
                       [--nvcc] [--lint build/bin/cuda-async-lint]
      Lints every .cu/.cpp/.cc/.cxx/.hip file of REPO on its own, as a new user
      would without a build system: `cuda-async-lint --format=json FILE --
      -I REPO/DIR...` (only the repository's own include paths, given with
      -I relative to REPO). Records per file the exit status, the findings,
      the parse errors and the time. With --nvcc it also asks nvcc whether it
      compiles the file for Linux with the same include paths (cached beside
      RESULTS.json by content hash), which gives the parse rate's
      denominator: files nvcc compiles. With --programs, the files of each
      directory are one program instead: linted together through a
      compilation database of their own (`cuda-async-lint -p DB`), so that
      whole-program provenance sees across them (docs/usage.md). With --hip
      every file is compiled as HIP (-x hip), as hipcc compiles a HIP
      project's C++ sources. --cuda REGEX names the files the build compiles
      as CUDA whatever their extension (CMake's LANGUAGE CUDA): linted with
      -x cuda, compiled with nvcc -x cu. --nvcc-flag passes nvcc an option
      the build passes it (--extended-lambda) that clang needs no twin of.

  scripts/real-code.py table RESULTS.json [--verdicts FILE]
      Prints Markdown: the parse rate, the parse failures by class, findings
      per check with verdicts (true / debatable / false, from a TSV file of
      `path<TAB>line<TAB>check<TAB>verdict<TAB>why`), and every finding.

  scripts/real-code.py corpus docs/real-code/corpus.json --checkouts DIR
                       -o OUTDIR [-j N] [--name NAME]... [--table]
      Runs `run` (with --nvcc; HIP repositories with --hip, against hipcc
      instead of nvcc) over every repository the manifest
      names, each from DIR/NAME, with its include paths, macros, file
      filter, files compiled as CUDA ("cuda") and nvcc options
      ("nvccFlags"), and prints one row per repository: files, parse rate, parse
      failures by cause (the tool's, a missing dependency, code nvcc rejects
      too) and findings by verdict (from the manifest's verdict files).

  scripts/real-code.py diff OLD.json NEW.json
      What changed between two runs: findings gained and lost, files that
      started or stopped parsing, total time. Exit status 1 if anything did.
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_manifest import compiled_as_cuda  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = (".cu", ".cpp", ".cc", ".cxx", ".hip")
VERDICTS = ("true", "debatable", "false")


def source_files(repo):
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(SOURCES):
                yield os.path.relpath(os.path.join(dirpath, name), repo)


def lint_one(lint, repo, path, includes, timeout, hip=False, defines=(),
             cuda=False):
    """`cuda`: the build compiles the file as CUDA whatever its extension
    (CMake's LANGUAGE CUDA, nvcc -x cu)."""
    args = [lint, "--format=json", "--source-root=.", "-j", "1", path, "--"]
    if hip:
        args += ["-x", "hip", "-std=c++17"]
    elif cuda:
        args += ["-x", "cuda"]
    for inc in includes:
        args += ["-I", os.path.join(repo, inc)]
    args += ["-D" + d for d in defines]
    start = time.perf_counter()
    try:
        proc = subprocess.run(args, cwd=repo, capture_output=True, text=True,
                              timeout=timeout)
        status, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        status, out, err = "timeout", "", "timed out after %ds" % timeout
    elapsed = time.perf_counter() - start
    record = {"file": path, "status": status, "seconds": round(elapsed, 3),
              "findings": [], "errors": ""}
    try:
        report = json.loads(out)
    except ValueError:
        record["errors"] = err.strip()
        return record
    for f in report.get("findings", []):
        loc = f["location"]
        record["findings"].append({
            "check": f["check"], "file": loc["file"], "line": loc["line"],
            "column": loc["column"], "message": f["message"],
            "notes": ["%s:%d: %s" % (n["location"]["file"],
                                     n["location"]["line"], n["message"])
                      for n in f.get("notes", [])]})
    record["errors"] = "\n".join(e["message"] for e in report.get("errors", []))
    # 'deviceCodeErrors' in reports before 'toleratedErrors' named them.
    tolerated = report.get("toleratedErrors", report.get("deviceCodeErrors"))
    if tolerated:
        record["toleratedErrors"] = tolerated
    return record


def record_of(path, status, seconds, report, err):
    record = {"file": path, "status": status, "seconds": seconds,
              "findings": [], "errors": ""}
    if report is None:
        record["errors"] = err.strip()
    return record


def lint_program(lint, repo, paths, includes, timeout, scratch, hip=False,
                 defines=(), cuda=None):
    """Lints the files `paths` of one directory as one program, through a
    database of their own; one record per file, the program's time spread
    over its files."""
    db_dir = os.path.join(scratch, hashlib.sha256(
        "\n".join(paths).encode()).hexdigest()[:16])
    os.makedirs(db_dir, exist_ok=True)
    entries = []
    for path in paths:
        args = ["clang++", "-std=c++17", "-c", path]
        if hip:
            args[1:1] = ["-x", "hip"]
        elif path.endswith(".cu") or compiled_as_cuda(cuda, path):
            args[1:1] = ["-x", "cuda"]
        for inc in includes:
            args += ["-I", os.path.join(repo, inc)]
        args += ["-D" + d for d in defines]
        entries.append({"directory": repo, "file": path, "arguments": args})
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
        json.dump(entries, f)
    args = [lint, "--format=json", "--source-root=.", "-j", "1", "-p", db_dir]
    start = time.perf_counter()
    try:
        proc = subprocess.run(args, cwd=repo, capture_output=True, text=True,
                              timeout=timeout * len(paths))
        status, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        status, out, err = "timeout", "", "timed out"
    seconds = round((time.perf_counter() - start) / len(paths), 3)
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    records = {p: record_of(p, status, seconds, report, err) for p in paths}
    if report is None:
        return list(records.values())
    failed = {e["file"]: e for e in report.get("errors", [])}
    for p, rec in records.items():
        if p in failed:
            rec["status"] = 3
            rec["errors"] = failed[p]["message"]
        elif status == 3:
            rec["status"] = 0
    for f in report.get("findings", []):
        loc = f["location"]
        owner = records.get(loc["file"], records[paths[0]])
        owner["findings"].append({
            "check": f["check"], "file": loc["file"], "line": loc["line"],
            "column": loc["column"], "message": f["message"],
            "notes": ["%s:%d: %s" % (n["location"]["file"],
                                     n["location"]["line"], n["message"])
                      for n in f.get("notes", [])]})
    for rec in records.values():
        if rec["status"] == 1 and not rec["findings"]:
            rec["status"] = 0
        elif rec["status"] == 0 and rec["findings"]:
            rec["status"] = 1
    return list(records.values())


RDC_NEEDED = "requires separate compilation mode"


def nvcc_one(nvcc, repo, path, includes, cache, defines=(), cuda=False,
             flags=()):
    """Whether nvcc compiles the file for Linux with the same include paths
    (and with -rdc=true where dynamic parallelism needs it, as the
    repository's build would say); `cuda`: as CUDA whatever its extension;
    `flags`: the nvcc options the repository's build passes
    (--extended-lambda)."""
    with open(os.path.join(repo, path), "rb") as f:
        key = hashlib.sha256(f.read() + repr(includes).encode() +
                             repr(list(defines)).encode() +
                             (b"-x cu" if cuda else b"") +
                             (repr(list(flags)).encode() if flags else b"")
                             ).hexdigest()
    if key in cache:
        return cache[key]
    if os.path.basename(nvcc).startswith("hipcc"):
        # hipcc's host and device passes, as a HIP project's build runs it.
        # A GPU named: without one hipcc asks the driver which it has.
        args = [nvcc, "-fsyntax-only", "-x", "hip", "-std=c++17",
                "--offload-arch=gfx90a", path]
    else:
        args = [nvcc, "-c", "-arch=sm_90", "-o", os.devnull, path]
        if cuda:
            args[1:1] = ["-x", "cu"]
        args[1:1] = list(flags)
    for inc in includes:
        args += ["-I", os.path.join(repo, inc)]
    args += ["-D" + d for d in defines]
    proc = subprocess.run(args, cwd=repo, capture_output=True, text=True)
    result = {"compiles": proc.returncode == 0,
              "error": first_error(proc.stderr)}
    if RDC_NEEDED in proc.stderr:
        proc = subprocess.run(args + ["-rdc=true"], cwd=repo,
                              capture_output=True, text=True)
        result = {"compiles": proc.returncode == 0, "rdc": True,
                  "error": first_error(proc.stderr)}
    cache[key] = result
    return result


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def cmd_run(opts):
    repo = os.path.abspath(opts.repo)
    files = list(source_files(repo))
    if opts.only:
        files = [f for f in files if re.search(opts.only, f)]
    cache_path = opts.output + ".nvcc-cache.json"
    cache = {}
    if opts.nvcc and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        if opts.programs:
            scratch = opts.output + ".programs"
            groups = collections.defaultdict(list)
            for f in files:
                groups[os.path.dirname(f)].append(f)
            futures = [pool.submit(lint_program, opts.lint, repo, g,
                                   opts.include, opts.timeout, scratch,
                                   opts.hip, opts.define, opts.cuda)
                       for g in groups.values()]
        else:
            futures = [pool.submit(lint_one, opts.lint, repo, f, opts.include,
                                   opts.timeout, opts.hip, opts.define,
                                   compiled_as_cuda(opts.cuda, f))
                       for f in files]
        done = 0
        for fut in concurrent.futures.as_completed(futures):
            recs = fut.result()
            for rec in recs if isinstance(recs, list) else [recs]:
                done += 1
                results[rec["file"]] = rec
                print("[%d/%d] %s: %s" % (done, len(files), rec["file"],
                                          rec["status"]), file=sys.stderr)
        if opts.nvcc:
            nv = {pool.submit(nvcc_one, opts.nvcc_path, repo, f, opts.include,
                              cache, opts.define, compiled_as_cuda(opts.cuda, f),
                              opts.nvcc_flags): f
                  for f in files}
            for fut in concurrent.futures.as_completed(nv):
                results[nv[fut]]["nvcc"] = fut.result()
            with open(cache_path, "w") as f:
                json.dump(cache, f, indent=0, sort_keys=True)
    out = {"repo": repo, "includes": opts.include,
           "lint": os.path.abspath(opts.lint),
           "files": [results[f] for f in sorted(results)]}
    with open(opts.output, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    summary = summarize(out)
    print("%(parsed)d of %(tried)d files parsed; %(findings)d findings; "
          "%(seconds).1f s" % summary, file=sys.stderr)
    return 0


def summarize(run, verdicts=None):
    files = run["files"]
    compiled = [f for f in files if f.get("nvcc", {}).get("compiles", True)]
    parsed = [f for f in compiled if f["status"] in (0, 1)]
    findings = [x for f in files for x in f["findings"]]
    return {"tried": len(compiled), "parsed": len(parsed),
            "all": len(files), "findings": len(findings),
            "seconds": sum(f["seconds"] for f in files)}


def failure_class(errors):
    """The first clang error, with names and paths folded away."""
    for line in errors.splitlines():
        m = re.search(r"(?:fatal )?error: (.*)", line)
        if m:
            msg = re.sub(r"'[^']*'", "'X'", m.group(1))
            return re.sub(r"\d+", "N", msg)
    return errors.splitlines()[0] if errors else "no error text"


MISSING_HEADER = re.compile(r"fatal error: ([^\s:]+): No such file|"
                            r"'([^']+)' file not found")


def failure_cause(rec):
    """Why a file did not parse: ("missing dependency", HEADER) where this
    machine lacks a header it needs (nvcc cannot compile it either; without
    nvcc's word, clang names a header it cannot find), ("not CUDA nvcc
    compiles", ERROR) where nvcc rejects it for another reason (an exercise
    left incomplete), and ("the tool's", CLASS) for a file nvcc compiles."""
    nv = rec.get("nvcc")
    if nv is not None and not nv["compiles"]:
        m = MISSING_HEADER.search(nv.get("error", ""))
        if m:
            return ("missing dependency", m.group(1) or m.group(2))
        return ("not CUDA nvcc compiles", nv.get("error", ""))
    m = MISSING_HEADER.search(rec["errors"])
    if m and nv is None:
        return ("missing dependency", m.group(1) or m.group(2))
    return ("the tool's", failure_class(rec["errors"]))


def load_verdicts(path):
    verdicts = {}
    # A repository just added has no verdicts yet: its findings are unread.
    if not path or not os.path.exists(path):
        return verdicts
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4 or parts[3] not in VERDICTS:
                raise SystemExit("%s: bad verdict line: %r" % (path, line))
            verdicts[(parts[0], int(parts[1]), parts[2])] = (
                parts[3], parts[4] if len(parts) > 4 else "")
    return verdicts


def all_findings(run):
    seen = set()
    root = run.get("repo")
    for f in run["files"]:
        for x in f["findings"]:
            # A header's finding is named by its absolute path: the verdicts
            # name it within the repository, as they name the files.
            name = x["file"]
            if root and os.path.isabs(name) and \
                    name.startswith(root.rstrip("/") + "/"):
                name = os.path.relpath(name, root)
            key = (name, x["line"], x["check"])
            if key not in seen:  # A header's finding, seen from two files.
                seen.add(key)
                yield key, x


def cmd_table(opts):
    with open(opts.results) as f:
        run = json.load(f)
    verdicts = load_verdicts(opts.verdicts)
    s = summarize(run)
    print("Parsed %d of %d files that nvcc compiles (%.1f%%); %d files "
          "tried in all; %.0f s of linting.\n" % (
              s["parsed"], s["tried"], 100.0 * s["parsed"] / max(s["tried"], 1),
              s["all"], s["seconds"]))
    classes = collections.defaultdict(list)
    for f in run["files"]:
        if f["status"] not in (0, 1):
            classes[failure_cause(f)].append(f["file"])
    if classes:
        print("| cause | parse failure | files |\n| --- | --- | --- |")
        for (cause, cls), names in sorted(
                classes.items(), key=lambda c: (c[0][0] != "the tool's",
                                                -len(c[1]), c[0])):
            print("| %s | %s | %s |" % (
                cause, cls.replace("|", "\\|"),
                ", ".join("`%s`" % n for n in names)))
        print()
    tolerated = [f["file"] for f in run["files"]
                 if f.get("toleratedErrors", f.get("deviceCodeErrors"))]
    if tolerated:
        print("Analysed although clang rejects some of their code that nvcc "
              "or its host compiler accepts (reported as a warning, not a "
              "failure): %s.\n" % ", ".join("`%s`" % n for n in tolerated))
    skipped = [f for f in run["files"]
               if not f.get("nvcc", {}).get("compiles", True)]
    if skipped:
        print("%d files nvcc does not compile here either (not counted).\n"
              % len(skipped))
    per_check = collections.defaultdict(collections.Counter)
    rows = []
    for key, x in all_findings(run):
        verdict, why = verdicts.get(key, ("untriaged", ""))
        per_check[x["check"]][verdict] += 1
        rows.append((x["file"], x["line"], x["check"], verdict, why))
    print("| check | findings | true | debatable | false | untriaged | "
          "precision |\n| --- | --- | --- | --- | --- | --- | --- |")
    for check in sorted(per_check):
        c = per_check[check]
        judged = c["true"] + c["false"]
        precision = ("%.0f%%" % (100.0 * c["true"] / judged)) if judged else "-"
        print("| %s | %d | %d | %d | %d | %d | %s |" % (
            check, sum(c.values()), c["true"], c["debatable"], c["false"],
            c["untriaged"], precision))
    print("\n| file | line | check | verdict | why |\n| --- | --- | --- | --- "
          "| --- |")
    for row in sorted(rows):
        print("| `%s` | %d | %s | %s | %s |" % row)
    return 0


def cmd_diff(opts):
    with open(opts.old) as f:
        old = json.load(f)
    with open(opts.new) as f:
        new = json.load(f)
    changed = False
    old_f, new_f = dict(all_findings(old)), dict(all_findings(new))
    for key in sorted(set(old_f) - set(new_f)):
        print("- %s:%d [%s] %s" % (key + (old_f[key]["message"],)))
        changed = True
    for key in sorted(set(new_f) - set(old_f)):
        print("+ %s:%d [%s] %s" % (key + (new_f[key]["message"],)))
        changed = True
    ok = lambda r: {f["file"]: f["status"] in (0, 1) for f in r["files"]}
    old_ok, new_ok = ok(old), ok(new)
    for name in sorted(set(old_ok) | set(new_ok)):
        if old_ok.get(name) and not new_ok.get(name):
            print("- parses: %s" % name)
            changed = True
        elif new_ok.get(name) and not old_ok.get(name):
            print("+ parses: %s" % name)
            changed = True
    so, sn = summarize(old), summarize(new)
    print("files parsed %d -> %d, findings %d -> %d, time %.1f s -> %.1f s"
          % (so["parsed"], sn["parsed"], so["findings"], sn["findings"],
             so["seconds"], sn["seconds"]))
    return 1 if changed else 0


def corpus_row(entry, run, verdicts):
    s = summarize(run)
    causes = collections.Counter(
        failure_cause(f)[0] for f in run["files"] if f["status"] not in (0, 1))
    # Each finding once, though a header's is seen from every file that
    # includes it.
    judged = collections.Counter()
    for key, _ in all_findings(run):
        judged[verdicts.get(key, ("untriaged", ""))[0]] += 1
    s["findings"] = sum(judged.values())
    return ("| [%s](https://github.com/%s) `%s` | %s | %d | %d | %d | %d | %d "
            "| %d | %d | %d | %d |" % (
                entry["name"], entry["repo"], entry["commit"], entry["style"],
                s["all"], s["tried"], s["parsed"], causes["the tool's"],
                causes["missing dependency"],
                causes["not CUDA nvcc compiles"], s["findings"],
                judged["true"] + judged["debatable"], judged["false"] +
                judged["untriaged"]))


def cmd_corpus(opts):
    with open(opts.manifest) as f:
        manifest = json.load(f)
    here = os.path.dirname(os.path.abspath(opts.manifest))
    os.makedirs(opts.output, exist_ok=True)
    rows = []
    for entry in manifest["repositories"]:
        if opts.name and entry["name"] not in opts.name:
            continue
        out = os.path.join(opts.output, entry["name"] + ".json")
        if not opts.table:
            checkout = os.path.join(opts.checkouts, entry["name"])
            if not os.path.isdir(checkout):
                raise SystemExit("no checkout of %s (%s at %s) at %s" % (
                    entry["name"], entry["repo"], entry["commit"], checkout))
            print("== %s" % entry["name"], file=sys.stderr)
            # HIP code is checked against hipcc, CUDA code against nvcc.
            hip = entry.get("hip", False)
            cmd_run(argparse.Namespace(
                repo=checkout, output=out, include=entry.get("includes", []),
                define=entry.get("defines", []), jobs=opts.jobs,
                lint=opts.lint, nvcc=True,
                nvcc_path=opts.hipcc_path if hip else opts.nvcc_path,
                only=entry.get("only"),
                timeout=opts.timeout, hip=entry.get("hip", False),
                cuda=entry.get("cuda"), nvcc_flags=entry.get("nvccFlags", []),
                programs=False))
        with open(out) as f:
            run = json.load(f)
        verdicts = load_verdicts(os.path.join(here, entry["verdicts"]))
        rows.append(corpus_row(entry, run, verdicts))
    print("| repository | style | files | nvcc compiles | parse | the tool's "
          "| missing dependency | nvcc rejects too | findings | true | false or "
          "unread |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- "
          "| --- | --- |")
    print("\n".join(rows))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("repo")
    r.add_argument("-o", "--output", required=True)
    r.add_argument("-I", "--include", action="append", default=[],
                   help="include directory, relative to REPO")
    r.add_argument("-D", "--define", action="append", default=[],
                   help="macro definition, as the repository's build gives")
    r.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    r.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                  "cuda-async-lint"))
    r.add_argument("--nvcc", action="store_true",
                   help="also ask nvcc which files compile")
    r.add_argument("--nvcc-path", default="/usr/local/cuda/bin/nvcc",
                   help="the compiler --nvcc asks (hipcc for HIP code)")
    r.add_argument("--only", help="regular expression on the file paths")
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("--hip", action="store_true",
                   help="compile every file as HIP (-x hip), as hipcc does")
    r.add_argument("--cuda", help="regular expression on the file paths "
                   "the build compiles as CUDA whatever their extension "
                   "(CMake's LANGUAGE CUDA)")
    r.add_argument("--nvcc-flag", dest="nvcc_flags", action="append",
                   default=[], help="an option the repository's build passes "
                   "nvcc (--extended-lambda); not the linter's")
    r.add_argument("--programs", action="store_true",
                   help="lint each directory's files together, as one "
                   "program (whole-program provenance)")
    t = sub.add_parser("table")
    t.add_argument("results")
    t.add_argument("--verdicts")
    c = sub.add_parser("corpus", help="run (or, with --table, tabulate) "
                       "every repository of a corpus manifest")
    c.add_argument("manifest", help="docs/real-code/corpus.json")
    c.add_argument("--checkouts", default=".",
                   help="folder holding a checkout of each repository, "
                   "named as the manifest names it")
    c.add_argument("-o", "--output", required=True,
                   help="folder for each repository's RESULTS.json")
    c.add_argument("--name", action="append", help="only these repositories")
    c.add_argument("--table", action="store_true",
                   help="tabulate the results already in --output")
    c.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    c.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                  "cuda-async-lint"))
    c.add_argument("--nvcc-path", default="/usr/local/cuda/bin/nvcc")
    c.add_argument("--hipcc-path", default="/usr/bin/hipcc")
    c.add_argument("--timeout", type=int, default=300)
    d = sub.add_parser("diff")
    d.add_argument("old")
    d.add_argument("new")
    opts = p.parse_args()
    return {"run": cmd_run, "table": cmd_table, "diff": cmd_diff,
            "corpus": cmd_corpus}[opts.cmd](opts)


if __name__ == "__main__":
    sys.exit(main())
