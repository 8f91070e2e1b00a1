#!/usr/bin/env python3
"""Robustness run: damaged sources through both front-ends.

Mutates the project's own test corpus (examples/, test/Inputs/, test/checks/)
and runs the cuda-async-lint driver and the clang-tidy plugin on every
mutant. A mutant fails the run if either front-end:

  - dies of a signal (a crash, an abort),
  - exits with a status outside the documented ones (driver 0-3; clang-tidy
    0-1),
  - runs past the time limit (the driver has its own --timeout; the
    harness's limit sits above it, so a hang means the driver hung),
  - writes JSON or SARIF that does not parse, or whose summary disagrees
    with its findings.

The mutations: delete or duplicate a run of lines, truncate, overwrite or
insert random bytes (NUL and non-UTF-8 included), swap two lines, nest a
statement thousands of braces or parentheses deep, append a function with
thousands of copy+sync pairs, splice a CUDA or HIP call from another corpus file,
swap allocators and streams for their look-alikes, and put before the file
what makes clang stop the unit (a byte order mark of an encoding it does not
read, a missing include, #error, the error limit, an include cycle, the
template recursion limit). Each mutant is parsed as C++17 or C++20. The same --seed gives
the same mutants, so any failure can be reproduced; --keep saves failing
mutants with the command that failed.

  scripts/fuzz.py --build build --mutants 200 --seed 1
  scripts/fuzz.py --build build --mutants 5000 --seed 7 --keep /tmp/fuzz

docs/reliability.md records the latest long run.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_DIRS = ["examples", "test/Inputs", "test/checks"]
# Inputs that crash or hang clang by design (the isolation test's).
EXCLUDED = ("clang-crashes.cpp", "clang-hangs.cpp")
SOURCE_SUFFIXES = (".cu", ".cpp", ".cuh", ".h", ".hip")

# Look-alikes whose swap changes what a check concludes.
SWAPS = [
    ("cudaMallocHost", "malloc"), ("malloc", "cudaMallocHost"),
    ("cudaFreeHost", "free"), ("free", "cudaFreeHost"),
    ("delete[]", "cudaFreeHost"), ("cudaHostAlloc", "cudaMalloc"),
    ("cudaStreamSynchronize", "cudaDeviceSynchronize"),
    ("cudaMemcpyAsync", "cudaMemcpy"), ("cudaMemcpy", "cudaMemcpyAsync"),
    ("cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost"),
    ("stream", "0"), ("cudaStreamNonBlocking", "cudaStreamDefault"),
    ("for (", "while ("), ("if (", "while ("), ("{", "{{"), ("}", "}}"),
    # HIP's.
    ("hipHostMalloc", "malloc"), ("hipHostFree", "free"),
    ("free", "hipHostFree"), ("hipStreamSynchronize", "hipDeviceSynchronize"),
    ("hipMemcpyAsync", "hipMemcpy"), ("hipMemcpy", "hipMemcpyAsync"),
    ("hipStreamNonBlocking", "hipStreamDefault"),
]


def corpus_files():
    files = []
    for d in CORPUS_DIRS:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES) and name not in EXCLUDED:
                    files.append(os.path.join(base, name))
    return sorted(files)


def cuda_calls(files):
    """Statements that call the CUDA or HIP API, for splicing into other
    files."""
    calls = []
    for path in files:
        with open(path, "rb") as f:
            for line in f.read().split(b"\n"):
                s = line.strip()
                if s.startswith((b"cuda", b"hip")) and s.endswith(b";"):
                    calls.append(line)
    return calls or [b"cudaDeviceSynchronize();"]


def mutate(data, rng, calls):
    """One mutation of data (bytes); returns (bytes, description)."""
    lines = data.split(b"\n")
    kind = rng.choice(["delete-lines", "duplicate-lines", "truncate",
                       "random-bytes", "insert-bytes", "swap-lines",
                       "deep-nesting", "huge-body", "splice-call",
                       "swap-names", "fatal-error"])
    n = len(lines)
    if kind == "delete-lines":
        i = rng.randrange(n)
        k = rng.randint(1, max(1, n // 4))
        return b"\n".join(lines[:i] + lines[i + k:]), "%s %d+%d" % (kind, i, k)
    if kind == "duplicate-lines":
        i = rng.randrange(n)
        k = rng.randint(1, 8)
        times = rng.choice([1, 2, 50])
        return (b"\n".join(lines[:i] + lines[i:i + k] * (times + 1) +
                           lines[i + k:]),
                "%s %d+%dx%d" % (kind, i, k, times))
    if kind == "truncate":
        i = rng.randrange(len(data) + 1)
        return data[:i], "%s %d" % (kind, i)
    if kind == "random-bytes":
        b = bytearray(data)
        count = rng.randint(1, 16)
        for _ in range(count):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), "%s x%d" % (kind, count)
    if kind == "insert-bytes":
        i = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
        return data[:i] + junk + data[i:], "%s %d+%d" % (kind, i, len(junk))
    if kind == "swap-lines":
        i, j = rng.randrange(n), rng.randrange(n)
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines), "%s %d,%d" % (kind, i, j)
    if kind == "deep-nesting":
        depth = rng.choice([300, 2000, 20000])
        opener, closer = rng.choice([(b"{", b"}"), (b"(", b")"),
                                     (b"if (1) {", b"}")])
        body = (b"void deep_nesting() " + b"{" + opener * depth +
                b"cudaDeviceSynchronize();" + closer * depth + b"}\n")
        if opener == b"(":
            body = (b"int deep_nesting() { return " + opener * depth + b"1" +
                    closer * depth + b"; }\n")
        return data + b"\n" + body, "%s %s x%d" % (kind, opener.decode(),
                                                   depth)
    if kind == "huge-body":
        pairs = rng.choice([1000, 5000])
        pair = (b"  cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s);\n"
                b"  cudaStreamSynchronize(s);\n")
        loop = rng.random() < 0.5
        body = (b"void huge_body(float *d, float *h, cudaStream_t s) {\n" +
                (b"for (int i = 0; i < 8; ++i) {\n" if loop else b"") +
                pair * pairs + (b"}\n" if loop else b"") + b"}\n")
        return data + b"\n" + body, "%s %d%s" % (kind, pairs,
                                                 " in a loop" if loop else "")
    if kind == "fatal-error":
        # What makes clang stop the unit: an encoding it does not read, a
        # missing include, #error, the error limit, an include cycle, the
        # template recursion limit.
        fatal, text = rng.choice([
            ("utf16le-bom", b"\xff\xfe"), ("utf16be-bom", b"\xfe\xff"),
            ("utf32le-bom", b"\xff\xfe\x00\x00"), ("utf7-bom", b"+/v8"),
            ("utf8-bom", b"\xef\xbb\xbf"),
            ("missing-include", b'#include "no-such-header.h"\n'),
            ("error-directive", b"#error fuzz\n"),
            ("error-limit", b"".join(b"int e%d = undeclared%d;\n" % (i, i)
                                     for i in range(40))),
            ("include-cycle", b"#include __FILE__\n"),
            ("template-recursion",
             b"template <int N> struct R { static const int v = R<N + 1>::v; "
             b"};\nint r = R<0>::v;\n")])
        return text + data, "%s %s" % (kind, fatal)
    if kind == "splice-call":
        i = rng.randrange(n)
        call = rng.choice(calls)
        return (b"\n".join(lines[:i] + [call] + lines[i:]),
                "%s at %d" % (kind, i))
    old, new = rng.choice(SWAPS)
    count = data.count(old.encode())
    if not count:
        return data + b"\n" + rng.choice(calls), kind + " (none, spliced)"
    occurrence = rng.randrange(count)
    start = -1
    for _ in range(occurrence + 1):
        start = data.find(old.encode(), start + 1)
    return (data[:start] + new.encode() + data[start + len(old):],
            "%s %s->%s #%d" % (kind, old, new, occurrence))


def make_mutant(index, seed, files, calls):
    rng = random.Random("%d:%d" % (seed, index))
    path = rng.choice(files)
    with open(path, "rb") as f:
        data = f.read()
    steps = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        data, what = mutate(data, rng, calls)
        steps.append(what)
    rel = os.path.relpath(path, ROOT)
    return rel, data, "; ".join(steps), rng


def check_report(fmt, text):
    """Why the JSON or SARIF report is not valid, or None."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        return "%s output does not parse: %s" % (fmt, e)
    try:
        if fmt == "json":
            s = doc["summary"]
            if s["findings"] != len(doc["findings"]):
                return "summary.findings disagrees with findings[]"
            if s["failedFiles"] != len(doc["errors"]):
                return "summary.failedFiles disagrees with errors[]"
        else:
            run = doc["runs"][0]
            ok = run["invocations"][0]["executionSuccessful"]
            notes = run["invocations"][0].get("toolExecutionNotifications",
                                              [])
            if ok != all(n["level"] != "error" for n in notes):
                return "executionSuccessful disagrees with notifications"
    except (KeyError, IndexError, TypeError) as e:
        return "%s report lacks %s" % (fmt, e)
    return None


def run(cmd, limit):
    """(status, stdout, stderr, seconds); status None on a hang."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=limit)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b"", limit


def fuzz_one(index, args, files, calls, workdir):
    rel, data, what, rng = make_mutant(index, args.seed, files, calls)
    suffix = os.path.splitext(rel)[1]
    if suffix in (".h", ".cuh"):
        suffix = ".cu"
    src = os.path.join(workdir, "mutant%d%s" % (index, suffix))
    with open(src, "wb") as f:
        f.write(data)
    fmt = rng.choice(["text", "json", "sarif"])
    # Language modes differ in what a fatal error leaves (clang 22's C++20
    # preprocessor crashes after an unsupported encoding).
    std = rng.choice(["c++17", "c++20"])
    lint = [args.lint, "--use-bundled-cuda", "--use-bundled-hip",
            "--format=" + fmt, "--timeout=%d" % args.timeout,
            "--extra-arg=-std=" + std, src]
    tidy = [args.clang_tidy, "--load=" + args.plugin, "--quiet",
            "--checks=-*,cuda-async-*", src, "--", "-x", "cuda",
            "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=" + std,
            "-isystem", args.bundled_include, "-include", "cuda_runtime.h"]
    if suffix == ".hip":
        tidy[tidy.index("--") + 1:] = [
            "-x", "hip", "--offload-host-only", "-nogpuinc", "-nogpulib",
            "-std=" + std, "-isystem", args.bundled_include, "-include",
            "__clang_hip_runtime_wrapper.h"]
    # clang itself crashes or never ends on some mutants (thousands of nested
    # parentheses overflow its parser's stack): a crash or a hang counts
    # against the tools only if plain `clang++ -fsyntax-only` survives it.
    reference = [args.clang, "-fsyntax-only"] + tidy[tidy.index("--") + 1:] + [
        src]
    reference_status = []

    def clang_fails_too():
        if not reference_status:
            status, _, err, _ = run(reference, args.timeout)
            # clang's driver survives its front-end's crash (in-process,
            # with crash recovery) and exits 1: its stack dump tells.
            reference_status.append(status is None or status < 0 or
                                    b"PLEASE submit a bug report" in err)
        return reference_status[0]

    problems = []
    result = {"mutant": index, "from": rel, "mutation": what}
    status, out, err, secs = run(lint, args.limit)
    result["lint"] = status
    result["lint_seconds"] = secs
    if status is None:
        problems.append("driver hung past %ds" % (args.limit))
    elif status < 0:
        problems.append("driver died of signal %d" % -status)
    elif status not in (0, 1, 2, 3):
        problems.append("driver exit status %d" % status)
    elif status == 2:
        problems.append("driver exit status 2 (usage error) on a source file")
    elif fmt != "text":
        why = check_report(fmt, out.decode("utf-8", "replace"))
        if why:
            problems.append("driver: " + why)
    for marker, key in ((b"the analysis crashed", "clang_crash"),
                        (b"did not finish within", "timeout")):
        if status == 3 and marker in err:
            if clang_fails_too():
                result[key] = True
            else:
                problems.append("driver: %s, where clang++ -fsyntax-only "
                                "does not" % marker.decode())

    if not args.no_tidy:
        status, out, err, secs = run(tidy, args.limit)
        result["tidy"] = status
        if status is None or status < 0:
            what_happened = ("hung past %ds" % (args.limit)
                             if status is None else
                             "died of signal %d" % -status)
            if clang_fails_too():
                result["tidy_clang_failure"] = True
            else:
                problems.append("clang-tidy %s, where clang++ -fsyntax-only "
                                "does not" % what_happened)
        elif status not in (0, 1):
            problems.append("clang-tidy exit status %d" % status)

    result["problems"] = problems
    if problems and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        kept = os.path.join(args.keep, os.path.basename(src))
        shutil.copy(src, kept)
        with open(kept + ".txt", "w") as f:
            f.write("from %s: %s\n%s\n%s\n%s\n" % (
                rel, what, "\n".join(problems), " ".join(lint),
                " ".join(tidy)))
    os.unlink(src)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory (bin/, lib/, share/)")
    ap.add_argument("--clang-tidy", default="clang-tidy-22")
    ap.add_argument("--clang", default="clang++-22",
                    help="the compiler whose crashes are clang's, not ours")
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=20,
                    help="the driver's --timeout per file, in seconds")
    ap.add_argument("--hang-margin", type=int, default=30,
                    help="a run is a hang past twice --timeout plus this")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-tidy", action="store_true",
                    help="run the driver only")
    ap.add_argument("--keep", help="save failing mutants here")
    ap.add_argument("--json", help="write every mutant's result here")
    args = ap.parse_args()
    args.limit = args.timeout * 2 + args.hang_margin
    args.lint = os.path.join(args.build, "bin", "cuda-async-lint")
    args.plugin = os.path.join(args.build, "lib",
                               "CudaAsyncLintTidyModule.so")
    args.bundled_include = os.path.join(args.build, "share",
                                        "cuda-async-lint", "include")
    for need in (args.lint, args.plugin, args.bundled_include):
        if not os.path.exists(need):
            sys.exit("fuzz.py: error: '%s' is missing; build first" % need)
    if not args.no_tidy and not shutil.which(args.clang_tidy):
        sys.exit("fuzz.py: error: no '%s' on PATH" % args.clang_tidy)

    files = corpus_files()
    calls = cuda_calls(files)
    start = time.monotonic()
    results = []
    with tempfile.TemporaryDirectory(prefix="cuda-async-fuzz-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(fuzz_one, i, args, files, calls, workdir)
                       for i in range(args.mutants)]
            for done, future in enumerate(
                    concurrent.futures.as_completed(futures), 1):
                r = future.result()
                results.append(r)
                if r["problems"]:
                    print("FAIL mutant %d (%s: %s): %s" % (
                        r["mutant"], r["from"], r["mutation"],
                        "; ".join(r["problems"])), flush=True)
                if sys.stderr.isatty():
                    sys.stderr.write("\r[%d/%d]" % (done, args.mutants))
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    results.sort(key=lambda r: r["mutant"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)

    lint_status = collections.Counter(str(r["lint"]) for r in results)
    tidy_status = collections.Counter(str(r.get("tidy")) for r in results)
    kinds = collections.Counter(
        step.split(" ")[0] for r in results
        for step in r["mutation"].split("; "))
    failed = [r for r in results if r["problems"]]
    slowest = max(results, key=lambda r: r["lint_seconds"])
    print("mutants: %d (seed %d) in %.0f s" % (len(results), args.seed,
                                              time.monotonic() - start))
    print("mutations: " + ", ".join("%s %d" % kv
                                    for kv in sorted(kinds.items())))
    print("driver exit status: " + ", ".join(
        "%s: %d" % kv for kv in sorted(lint_status.items())))
    if not args.no_tidy:
        print("clang-tidy exit status: " + ", ".join(
            "%s: %d" % kv for kv in sorted(tidy_status.items())))
    print("clang's own crashes or hangs (clang++ -fsyntax-only fails too): "
          "driver exit 3 (crash) %d, driver exit 3 (--timeout) %d, "
          "clang-tidy signal or hang %d" % (
              sum(1 for r in results if r.get("clang_crash")),
              sum(1 for r in results if r.get("timeout")),
              sum(1 for r in results if r.get("tidy_clang_failure"))))
    print("slowest driver run: %.1f s (mutant %d, %s: %s)" % (
        slowest["lint_seconds"], slowest["mutant"], slowest["from"],
        slowest["mutation"]))
    print("failures: %d" % len(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
