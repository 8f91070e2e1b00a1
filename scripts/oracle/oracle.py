#!/usr/bin/env python3
"""The run as the oracle: static recall measured against what programs do.

  oracle.py prepare --checkouts DIR [--tracer BIN]     (here, with LLVM)
  oracle.py gpu --out DIR [--deadline S] [--jobs N] [--runs N]  (GPU machine)
               [--redo FILE]
  oracle.py import FILE...                              (here)
  oracle.py compare [--lint BIN] [-j N] [--only REGEX]  (here, with LLVM)
  oracle.py report                                      (the tables)

docs/oracle/programs.json (or $CUDA_ASYNC_ORACLE_MANIFEST) names each
runnable program: its repository and
commit, sources, flags, arguments. `prepare` copies what each program
needs from the checkouts (its sources, the headers they include as nvcc -M
lists them, its data) into .oracle/bundle/ (ignored by git, carried to the
GPU machine), writes every mutant (mutate.py) to .oracle/mutants.jsonl and
puts the statically linked tracer (cuda-async-trace-portable) in
.oracle/bin/.

`gpu` runs on the GPU machine, in the repository root: it builds the
tracer's injection library, builds each program and each mutant with nvcc
(objects cached by content hash, builds in parallel), runs each under
cuda-async-trace --races (several at once), and writes one JSON line per
program or mutant run to OUT/results.jsonl: the runtime findings (check,
file, line), the exit status, the time. It starts nothing new after
--deadline seconds and skips what docs/oracle/results.jsonl (or this
machine's earlier calls) already holds, so a run cut short resumes where it
stopped. --redo FILE names runs (one id a line) to make again although
recorded, after a change to the tracer's rules that could change them;
`import` replaces their records.

`import` merges such files into docs/oracle/results.jsonl. `compare` lints
each mutant the run confirmed (a runtime finding the pristine program's run
does not have), file by file and with the program's units together, and
writes docs/oracle/comparison.json; docs/oracle.md reads it.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from mutate import Generator, apply  # noqa: E402

MANIFEST = os.path.join(ROOT, "docs", "oracle", "programs.json")
RESULTS = os.path.join(ROOT, "docs", "oracle", "results.jsonl")
STATE = os.path.join(ROOT, ".oracle")
NVCC_FLAGS = ["-arch=sm_90", "-O2", "-g", "-lineinfo"]
# A program whose pristine run takes longer gets no mutants: the oracle's
# GPU time goes to many short runs.
MAX_SECONDS = 30


def load_manifest():
    with open(os.environ.get("CUDA_ASYNC_ORACLE_MANIFEST", MANIFEST)) as f:
        return json.load(f)


def read(path):
    with open(path, encoding="latin-1") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="latin-1") as f:
        f.write(text)


def compile_flags(p, root):
    """The preprocessor and language flags of program `p` with its
    repository at `root`."""
    flags = ["-I" + os.path.join(root, i) for i in p.get("includes", [])]
    flags += ["-D" + d for d in p.get("defines", [])]
    return flags + p.get("flags", [])


def finding_key(f):
    """What makes two findings one: their check and line."""
    return (f["check"], f["file"], f["line"])


def program_id(p):
    return "pristine-" + hashlib.sha256(
        json.dumps(p, sort_keys=True).encode()).hexdigest()[:12]


# --- prepare ---------------------------------------------------------------

def dependencies(p, repo_root):
    """The files under `repo_root` that building `p` reads."""
    files = set(p["sources"])
    for src in p["sources"]:
        args = ["nvcc", "-M"] + NVCC_FLAGS[:1] + compile_flags(p, repo_root)
        args += [os.path.join(repo_root, src)]
        proc = subprocess.run(args, cwd=repo_root, capture_output=True,
                              text=True)
        if proc.returncode:
            raise RuntimeError("%s: nvcc -M failed: %s" % (
                p["name"], proc.stderr.strip().splitlines()[-1:]))
        deps = proc.stdout.replace("\\\n", " ")
        for token in deps[deps.index(":") + 1:].split():
            path = os.path.realpath(os.path.join(repo_root, token))
            real_root = os.path.realpath(repo_root)
            if path.startswith(real_root + os.sep):
                files.add(os.path.relpath(path, real_root))
    return files


def cmd_prepare(opts):
    manifest = load_manifest()
    bundle = os.path.join(STATE, "bundle")
    shutil.rmtree(bundle, ignore_errors=True)
    gen = Generator()
    mutants = []
    for p in manifest["programs"]:
        repo_root = os.path.join(opts.checkouts, p["repo"])
        for rel in sorted(dependencies(p, repo_root)) + p.get("data", []):
            src, dst = os.path.join(repo_root, rel), \
                os.path.join(bundle, p["repo"], rel)
            if os.path.isdir(src):
                shutil.copytree(src, dst, dirs_exist_ok=True)
            else:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)
        for src in p["sources"]:
            mutants += gen.mutants(p["name"], src,
                                   read(os.path.join(repo_root, src)))
    with open(os.path.join(STATE, "mutants.jsonl"), "w") as f:
        for m in mutants:
            f.write(json.dumps(m, sort_keys=True) + "\n")
    os.makedirs(os.path.join(STATE, "bin"), exist_ok=True)
    shutil.copy2(opts.tracer, os.path.join(STATE, "bin", "cuda-async-trace"))
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(STATE) for f in fs)
    kinds = {}
    for m in mutants:
        kinds[m["kind"]] = kinds.get(m["kind"], 0) + 1
    print("%d programs, %d mutants (%s); .oracle/ holds %.1f MiB" % (
        len(manifest["programs"]), len(mutants),
        ", ".join("%s %d" % kv for kv in sorted(kinds.items())),
        size / 2**20))
    if size > 56 * 2**20:
        print("prepare: .oracle/ is over the 56 MiB a device call carries",
              file=sys.stderr)
        return 1
    return 0


# --- gpu -------------------------------------------------------------------

class Gpu:
    def __init__(self, opts):
        self.opts = opts
        self.work = opts.work
        self.bundle = os.path.join(STATE, "bundle")
        self.tracer = os.path.join(STATE, "bin", "cuda-async-trace")
        self.lock = threading.Lock()
        self.out = open(os.path.join(opts.out, "results.jsonl"), "a")
        self.local = os.path.join(self.work, "results.jsonl")
        self.redo = set()
        if opts.redo:
            with open(opts.redo) as f:
                self.redo = {line.strip() for line in f if line.strip()}
        self.deadline = time.time() + opts.deadline
        try:
            names = subprocess.run(
                ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                capture_output=True, text=True, errors="replace").stdout.split("\n")
        except OSError:
            names = []
        self.device = names[0].strip() if names and names[0].strip() \
            else "no GPU"

    def injection(self):
        build = os.path.join(self.work, "injection")
        lib = os.path.join(build, "libcuda-async-trace-injection.so")
        if not os.path.exists(lib):
            for args in (["cmake", "-S", os.path.join(ROOT, "tracer",
                                                        "injection"),
                          "-B", build, "-G", "Ninja",
                          "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                         ["ninja", "-C", build]):
                proc = subprocess.run(args, capture_output=True, text=True, errors="replace")
                if proc.returncode:
                    sys.exit("gpu: %s failed:\n%s%s" % (
                        args[0], proc.stdout[-3000:], proc.stderr[-3000:]))
        return lib

    def record(self, rec):
        rec["device"] = self.device
        line = json.dumps(rec, sort_keys=True) + "\n"
        with self.lock:
            self.out.write(line)
            self.out.flush()
            with open(self.local, "a") as f:
                f.write(line)

    def build(self, p, sources, key):
        """Builds program `p` from `sources` ({path: text or None for the
        bundle's own}); returns (binary, error)."""
        repo = os.path.join(self.bundle, p["repo"])
        binary = os.path.join(self.work, "bin", key)
        if os.path.exists(binary):
            return binary, None
        flags = NVCC_FLAGS + compile_flags(p, repo)
        objects = []
        for rel in p["sources"]:
            text = sources.get(rel)
            origin = os.path.join(repo, rel)
            digest = hashlib.sha256((json.dumps(flags) + rel + (
                text if text is not None else read(origin))).encode(
                    "latin-1")).hexdigest()[:16]
            obj = os.path.join(self.work, "obj", digest + ".o")
            if not os.path.exists(obj):
                path = origin
                extra = []
                if text is not None:
                    # The mutant's copy, at the same path under its own
                    # root; its quoted includes resolve beside the original.
                    path = os.path.join(self.work, "src", key, p["repo"], rel)
                    write(path, text)
                    extra = ["-I" + os.path.dirname(origin)]
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                # Programs that share a source (a benchmark suite's main)
                # may build the same object at once: each its own file.
                tmp = "%s.%d.tmp" % (obj, threading.get_ident())
                proc = subprocess.run(
                    ["nvcc"] + flags + extra + ["-c"] +
                    [path, "-o", tmp], cwd=repo,
                    capture_output=True, text=True, errors="replace")
                if proc.returncode:
                    return None, first_error(proc.stderr + proc.stdout)
                os.replace(tmp, obj)
            objects.append(obj)
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        proc = subprocess.run(
            ["nvcc"] + link_flags(flags) + objects + ["-o", binary + ".tmp"] +
            p.get("libs", []) + ["-lcuda"], cwd=repo,
            capture_output=True, text=True, errors="replace")
        if proc.returncode:
            return None, first_error(proc.stderr + proc.stdout)
        os.replace(binary + ".tmp", binary)
        return binary, None

    def run(self, p, binary, key, timeout):
        repo = os.path.join(self.bundle, p["repo"])
        cwd = os.path.join(repo, p.get("cwd", os.path.dirname(
            p["sources"][0])))
        trace = os.path.join(self.work, "traces", key + ".json")
        os.makedirs(os.path.dirname(trace), exist_ok=True)
        args = [self.tracer, "--injection", self.lib, "--races", "--quiet",
                "-o", trace, "--", binary] + p.get("args", [])
        start = time.time()
        try:
            proc = subprocess.run(args, cwd=cwd, capture_output=True,
                                  timeout=timeout)
            status = proc.returncode
            output = proc.stdout[-1500:] + proc.stderr[-1500:]
        except subprocess.TimeoutExpired as e:
            status = "timeout"
            output = (e.stdout or b"")[-1500:] + (e.stderr or b"")[-1500:]
        rec = {"exit": status, "seconds": round(time.time() - start, 2),
               "output": output.decode("latin-1")[-600:]}
        try:
            with open(trace) as f:
                t = json.load(f)
        except (OSError, ValueError):
            rec["findings"] = None
            return rec
        rec["findings"] = [{
            "check": f["checkId"], "api": f.get("api"),
            "file": self.relative(f["location"]["file"], p["repo"]),
            "line": f["location"]["line"], "calls": f.get("calls"),
            "message": f.get("message", "")[:300]} for f in t["findings"]]
        unique = {}
        for f in rec["findings"]:
            unique.setdefault(finding_key(f), f)
        rec["findings"] = list(unique.values())
        rec["signal"] = max([pr.get("signal", 0) for pr in
                             t.get("processes", [])] or [0])
        os.remove(trace)
        return rec

    def relative(self, path, repo):
        """A source path of the run as a path in its repository."""
        for root in (os.path.join(self.work, "src"), self.bundle):
            root = os.path.realpath(root) + os.sep
            if path.startswith(root):
                rest = path[len(root):]
                if root.endswith(os.sep + "src" + os.sep):
                    rest = rest.split(os.sep, 1)[1]  # the mutant's key
                return rest.split(os.sep, 1)[1] if rest.startswith(
                    repo + os.sep) else rest
        return path

    def done(self):
        def ids(path):
            if not os.path.exists(path):
                return set()
            with open(path) as f:
                return {json.loads(line)["id"] for line in f if line.strip()}
        local = ids(self.local)
        # What --redo names counts as done only once this machine made it.
        return (ids(RESULTS) - self.redo) | local

    def main(self):
        os.makedirs(self.work, exist_ok=True)
        self.lib = self.injection()
        manifest = load_manifest()
        programs = {p["name"]: p for p in manifest["programs"]}
        done = self.done()
        pristine = load_pristine(RESULTS, self.local)
        pool = concurrent.futures.ThreadPoolExecutor(self.opts.jobs)
        runs = threading.Semaphore(self.opts.runs)
        counts = {"built": 0, "failed": 0, "ran": 0}

        def one(rec_id, p, sources, timeout, extra):
            if time.time() > self.deadline:
                return
            binary, error = self.build(p, sources, rec_id)
            rec = {"id": rec_id, "program": p["name"]}
            rec.update(extra)
            if binary is None:
                rec.update(status="build-failed", error=error)
                counts["failed"] += 1
                self.record(rec)
                return
            counts["built"] += 1
            with runs:
                if time.time() > self.deadline:
                    return
                rec.update(self.run(p, binary, rec_id, timeout))
                if extra["kind"] == "pristine" and rec["findings"] is not None:
                    # Twice: a finding of one run only is the program's
                    # timing, not a mutant's doing; both runs' count.
                    again = self.run(p, binary, rec_id, timeout)
                    seen = {finding_key(f) for f in rec["findings"]}
                    rec["findings"] += [f for f in again["findings"] or []
                                        if finding_key(f) not in seen]
                    rec["seconds"] = max(rec["seconds"], again["seconds"])
                    if again["exit"] != 0:
                        rec["exit"] = again["exit"]
            rec["status"] = "ran"
            counts["ran"] += 1
            self.record(rec)

        todo = [(program_id(p), p) for p in programs.values()
                if program_id(p) not in done]
        list(pool.map(lambda t: one(t[0], t[1], {}, 60,
                                    {"kind": "pristine"}), todo))
        pristine = load_pristine(RESULTS, self.local)
        mutants = []
        with open(os.path.join(STATE, "mutants.jsonl")) as f:
            for line in f:
                m = json.loads(line)
                p = programs.get(m["program"])
                base = pristine.get(program_id(p)) if p else None
                if m["id"] in done or not base or base["exit"] != 0 or \
                        base["seconds"] > MAX_SECONDS:
                    continue
                mutants.append((m, p, base))
        mutants.sort(key=lambda t: t[0]["id"])
        if self.opts.limit:
            mutants = mutants[:self.opts.limit]

        def mutant(t):
            m, p, base = t
            text = apply(read(os.path.join(self.bundle, p["repo"],
                                           m["file"])), m["edits"])
            one(m["id"], p, {m["file"]: text},
                max(20, 4 * base["seconds"]),
                {k: m[k] for k in ("kind", "check", "file", "line", "api")})

        list(pool.map(mutant, mutants))
        finished = self.done()
        print("gpu: on %s, %d built, %d failed to build, %d ran; %d "
              "mutants left for a later call" % (
                  self.device, counts["built"], counts["failed"],
                  counts["ran"], sum(m["id"] not in finished
                                     for m, _, _ in mutants)))
        return 0


def link_flags(flags):
    """`flags` without a source language (-x cu would read the objects as
    CUDA source)."""
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
        elif f in ("-x", "--x"):
            skip = True
        elif not f.startswith("-x"):
            out.append(f)
    return out


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return text.strip()[-300:]


def load_pristine(*paths):
    out = {}
    for path in paths:
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    rec = json.loads(line)
                    if rec.get("kind") == "pristine" and \
                            rec.get("status") == "ran":
                        out[rec["id"]] = rec
    return out


def cmd_gpu(opts):
    os.makedirs(opts.out, exist_ok=True)
    return Gpu(opts).main()


# --- import ----------------------------------------------------------------

def load_results(path=RESULTS):
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    out[rec["id"]] = rec
    return out


def cmd_import(opts):
    results = load_results()
    before = len(results)
    for path in opts.files:
        results.update(load_results(path))
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS + ".tmp", "w") as f:
        for key in sorted(results):
            f.write(json.dumps(results[key], sort_keys=True) + "\n")
    os.replace(RESULTS + ".tmp", RESULTS)
    print("import: %d records, %d new" % (len(results),
                                           len(results) - before))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--checkouts", required=True)
    p.add_argument("--tracer", default=os.path.join(
        ROOT, "build", "bin", "cuda-async-trace-portable"))
    p.set_defaults(func=cmd_prepare)
    p = sub.add_parser("gpu")
    p.add_argument("--out", required=True)
    p.add_argument("--work", default="/tmp/cuda-async-oracle")
    p.add_argument("--deadline", type=float, default=500)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    p.add_argument("--runs", type=int, default=4)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--redo", help="a file of run ids to make again")
    p.set_defaults(func=cmd_gpu)
    p = sub.add_parser("import")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_import)
    p = sub.add_parser("compare")
    p.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                  "cuda-async-lint"))
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--only", help="compare again only the programs whose "
                   "names match this regular expression; keep the others' "
                   "records")
    p.set_defaults(func=lambda o: __import__("compare").main(o))
    p = sub.add_parser("report")
    p.set_defaults(func=lambda o: __import__("report").main(o))
    opts = parser.parse_args()
    return opts.func(opts)


if __name__ == "__main__":
    sys.exit(main())
