#!/usr/bin/env python3
"""Times cuda-async-lint against clang -fsyntax-only on the same files.

For every file of the corpus (test/checks, examples), runs the driver with
all checks and then clang++ -fsyntax-only with exactly the command the driver
parses with (from --verbose), each --repeat times, and reports the median
wall time, the analysis overhead (lint minus parse) and the peak memory of
each. With --markdown FILE it also writes the table there (docs/benchmarks.md
holds the latest run).

With --compare it also times clang-tidy (bugprone-*,performance-*) and the
static analyzer (clang++ --analyze) on each file, with the same flags.

With --scaling it instead generates code of N operations (each pins, copies,
launches, synchronizes and releases: every check has work in each) in five
shapes (one loop body, nested loops, a switch, straight-line code, many small
functions) for doubling N, and times each check alone and all together: a
check whose time grows faster than the parse does redoes work per operation.

With --database it generates a compilation database of --files units and
times -j 1 against -j 2, and a cold run against a warm one with --cache-dir.

  scripts/benchmark.py [--build build] [--repeat 5] [--toolkit]
                       [--compare | --scaling [--sizes 625,...] |
                        --database [--files 40]]
                       [--markdown docs/benchmarks.md]
"""
import argparse
import datetime
import glob
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    """Wall seconds and peak resident kilobytes of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss, code


def parse_command(lint, cuda_args, path):
    """The clang command the driver parses path with."""
    out = subprocess.run([lint, "--verbose"] + cuda_args + [path],
                         capture_output=True, text=True)
    prefix = "cuda-async-lint: %s: " % path
    for line in out.stderr.splitlines():
        if line.startswith(prefix):
            argv = shlex.split(line[len(prefix):])
            return ["clang++-22", "-fsyntax-only"] + argv[1:]
    raise SystemExit("no command for %s:\n%s" % (path, out.stderr))


def measure(argv, repeat):
    run(argv)  # Warm-up, discarded: file system caches.
    times, memory = [], []
    for _ in range(repeat):
        elapsed, rss, code = run(argv)
        if code not in (0, 1):
            raise SystemExit("%s exited %d" % (" ".join(argv), code))
        times.append(elapsed)
        memory.append(rss)
    return statistics.median(times), max(memory)


# One operation: pin a buffer, copy from it, launch, synchronize, release.
# Every check has work in it.
OPERATION = """{pad}float *h{n};
{pad}cudaMallocHost(&h{n}, 64);
{pad}cudaMemcpyAsync(d, h{n}, 64, cudaMemcpyHostToDevice, 0);
{pad}k<<<1, 1>>>(d);
{pad}cudaStreamSynchronize(0);
{pad}cudaFreeHost(h{n});
"""


def operations(first, count, pad):
    return "".join(OPERATION.format(n=first + i, pad=pad)
                   for i in range(count))


def loop_body(ops):
    """All operations in one loop body."""
    return ("void f(float *d, int n) {\n"
            "  for (int i = 0; i < n; ++i) {\n" +
            operations(0, ops, "    ") + "  }\n}\n")


def nested_loops(ops):
    """Loop nests two deep, four operations in each inner body."""
    out = ["void f(float *d, int n) {\n"]
    for g in range(0, ops, 4):
        out.append("  for (int a%d = 0; a%d < n; ++a%d)\n"
                   "    for (int b%d = 0; b%d < n; ++b%d) {\n" % ((g,) * 6))
        out.append(operations(g, min(4, ops - g), "      "))
        out.append("    }\n")
    out.append("}\n")
    return "".join(out)


def switch_cases(ops):
    """One case per operation."""
    out = ["void f(float *d, int mode) {\n  switch (mode) {\n"]
    for i in range(ops):
        out.append("  case %d: {\n" % i + operations(i, 1, "    ") +
                   "    break;\n  }\n")
    out.append("  }\n}\n")
    return "".join(out)


def straight_line(ops):
    """All operations one after the other, no control flow."""
    return "void f(float *d) {\n" + operations(0, ops, "  ") + "}\n"


def many_functions(ops):
    """One small function per operation."""
    return "".join("void f%d(float *d) {\n" % i + operations(i, 1, "  ") +
                   "}\n" for i in range(ops))


SHAPES = [("one loop body", loop_body), ("nested loops", nested_loops),
          ("a switch", switch_cases), ("straight-line code", straight_line),
          ("many small functions", many_functions)]

DEFAULT_SIZES = "625,1250,2500,5000"

# What users run today, for --compare.
TIDY_CHECKS = "bugprone-*,performance-*"

SCALING_CHECKS = ["cuda-async-pageable-copy", "cuda-async-pinned-alloc-in-loop",
                  "cuda-async-default-stream", "cuda-async-sync-in-loop",
                  "cuda-async-unsynchronized-access",
                  "cuda-async-dealloc-mismatch",
                  "cuda-async-host-register-leak"]


def scaling(args, lint):
    """A table per shape of (operations, lines, parse, per-check times, all
    checks), and the growth of the last doubling of each column over the
    parse's."""
    tables = []
    sizes = [int(n) for n in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for title, shape in SHAPES:
            rows = []
            for ops in sizes:
                path = os.path.join(tmp, "shape%d.cu" % ops)
                with open(path, "w") as f:
                    f.write("#include <cuda_runtime.h>\n"
                            "__global__ void k(float *p) {}\n" + shape(ops))
                parse_time, _ = measure(
                    parse_command(lint, ["--use-bundled-cuda"], path),
                    args.repeat)
                times = [measure([lint, "--use-bundled-cuda",
                                  "--checks=-*," + c, path], args.repeat)[0]
                         for c in SCALING_CHECKS]
                times.append(measure([lint, "--use-bundled-cuda", path],
                                     args.repeat)[0])
                rows.append((ops, sum(1 for _ in open(path)), parse_time,
                             times))
            header = ("| operations | lines | clang -fsyntax-only (ms) | " +
                      " | ".join(c[len("cuda-async-"):] + " (ms)"
                                 for c in SCALING_CHECKS) +
                      " | all checks (ms) |")
            table = ["### " + title.capitalize(), "", header,
                     "|" + " --- |" * (len(SCALING_CHECKS) + 4)]
            for ops, lines, parse, times in rows:
                table.append("| %d | %d | %.0f | %s |" % (
                    ops, lines, parse * 1e3,
                    " | ".join("%.0f" % (t * 1e3) for t in times)))
            if len(rows) >= 2:
                (_, _, p0, t0), (_, _, p1, t1) = rows[-2], rows[-1]
                parse_growth = p1 / p0
                table.append(
                    "| growth of the last doubling, over the parse's | | "
                    "%.2f | %s |" % (parse_growth, " | ".join(
                        "%.2f" % ((b / a) / parse_growth)
                        for a, b in zip(t0, t1))))
            tables += table + [""]
    return tables


DATABASE_HEADER = """#pragma once
#include <cuda_runtime.h>
__global__ void k(float *p);
"""


def database(args, lint, cuda_args):
    """Times a generated 40-file database: -j 1 against -j 2, and a cold run
    with an empty cache against a warm re-run. Returns the table lines."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "common.h"), "w") as f:
            f.write(DATABASE_HEADER)
        entries = []
        for i in range(args.files):
            name = "unit%02d.cu" % i
            with open(os.path.join(tmp, name), "w") as f:
                f.write('#include "common.h"\n' + many_functions(20).replace(
                    "void f", "void u%d_f" % i))
            entries.append({"directory": tmp, "file": name,
                            "arguments": ["nvcc", "-c", name]})
        with open(os.path.join(tmp, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        base = [lint] + cuda_args + ["-p", tmp, "--format=json"]

        def output(argv):
            return subprocess.run(argv, capture_output=True).stdout

        one, one_kb = measure(base + ["-j", "1"], args.repeat)
        two, two_kb = measure(base + ["-j", "2"], args.repeat)
        same = output(base + ["-j", "1"]) == output(base + ["-j", "2"])
        cache = os.path.join(tmp, "cache")
        cold_times, warm_times = [], []
        cached = base + ["-j", "2", "--cache-dir=" + cache]
        for _ in range(args.repeat):
            subprocess.run(["rm", "-rf", cache])
            cold_times.append(run(cached)[0])
            warm_times.append(run(cached)[0])
        cold = statistics.median(cold_times)
        warm = statistics.median(warm_times)
        warm_same = output(cached) == output(base + ["-j", "2"])
        # One unit changed: it alone is summarized and analysed again.
        with open(os.path.join(tmp, "unit00.cu"), "a") as f:
            f.write("// changed\n")
        one_changed = run(cached)[0]
    return [
        "| run | wall time (ms) | peak (MiB) | note |",
        "| --- | --- | --- | --- |",
        "| `-j 1` | %.0f | %.0f | |" % (one * 1e3, one_kb / 1024),
        "| `-j 2` | %.0f | %.0f | %.2fx faster than `-j 1`; output %s |" % (
            two * 1e3, two_kb / 1024, one / two,
            "identical" if same else "DIFFERENT"),
        "| `-j 2 --cache-dir`, cold (empty cache) | %.0f | | %.0f%% of `-j 2` |"
        % (cold * 1e3, 100 * cold / two),
        "| `-j 2 --cache-dir`, warm (nothing changed) | %.0f | | %.0f%% of the "
        "cold run; output %s |" % (warm * 1e3, 100 * warm / cold,
                                   "identical" if warm_same else "DIFFERENT"),
        "| `-j 2 --cache-dir`, one file changed | %.0f | | %.0f%% of the cold "
        "run |" % (one_changed * 1e3, 100 * one_changed / cold),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--toolkit", action="store_true",
                        help="parse against /usr/local/cuda, not the bundled "
                             "declarations")
    parser.add_argument("--scaling", action="store_true",
                        help="time each check on ever larger generated code "
                             "of five shapes")
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help="operations per generated file, for --scaling")
    parser.add_argument("--database", action="store_true",
                        help="time a generated database: -j 1 against -j 2, "
                             "and the cache")
    parser.add_argument("--files", type=int, default=40,
                        help="translation units of the --database")
    parser.add_argument("--compare", action="store_true",
                        help="time clang-tidy (bugprone-*,performance-*) and "
                             "clang --analyze on each file too")
    parser.add_argument("--markdown")
    args = parser.parse_args()

    lint = os.path.join(args.build, "bin", "cuda-async-lint")
    if args.scaling:
        table = scaling(args, lint)
        context = [
            "Run on %s by `scripts/benchmark.py --scaling --repeat %d%s`." %
            (datetime.date.today().isoformat(), args.repeat,
             "" if args.sizes == DEFAULT_SIZES else " --sizes " + args.sizes),
            "",
            "Generated code of N operations, each of which pins a buffer, "
            "copies from it, launches a kernel, synchronizes on the legacy "
            "stream and releases the buffer (bundled declarations), in five "
            "shapes. Median wall time of %d runs; one check at a time "
            "(`--checks=-*,<check>`), then all of them. The last row divides "
            "each column's growth over the last doubling by the parse's: "
            "1.00 grows exactly like the parse; the goal is at most 1.30."
            % args.repeat]
        return publish(args, "## Scaling with function size", context, table)

    cuda_args = ["--cuda-path=/usr/local/cuda"] if args.toolkit else [
        "--use-bundled-cuda"]
    if args.database:
        table = database(args, lint, cuda_args)
        context = [
            "Run on %s by `scripts/benchmark.py --database%s --repeat %d`." %
            (datetime.date.today().isoformat(),
             " --toolkit" if args.toolkit else "", args.repeat), "",
            "A generated compilation database of %d translation units (20 "
            "small functions each, every one pinning, copying, launching, "
            "synchronizing and releasing; %s), linted whole with `-p` "
            "(both phases of the whole-program analysis) on this %d-core "
            "machine. Median wall time of %d runs; the cold cache runs start "
            "from an empty directory, each followed by a warm re-run."
            % (args.files, "the CUDA toolkit's headers" if args.toolkit
               else "bundled declarations", os.cpu_count(), args.repeat)]
        return publish(args, "## Parallel runs and the cache", context, table)
    corpus = sorted(glob.glob(os.path.join(ROOT, "test", "checks", "*.cu")) +
                    glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                    glob.glob(os.path.join(ROOT, "examples", "*.cpp")))
    if not args.toolkit:
        corpus = [f for f in corpus if not f.endswith("-toolkit.cu")]

    rows = []
    compared = []
    for path in corpus:
        parse_argv = parse_command(lint, cuda_args, path)
        lint_time, lint_kb = measure([lint] + cuda_args + [path], args.repeat)
        parse_time, parse_kb = measure(parse_argv, args.repeat)
        lines = sum(1 for _ in open(path))
        rows.append((os.path.relpath(path, ROOT), lines, parse_time,
                     lint_time, parse_kb, lint_kb))
        if args.compare:
            flags = [a for a in parse_argv[2:] if a != path]
            tidy = measure(["clang-tidy-22", "--quiet",
                            "--checks=-*," + TIDY_CHECKS, path, "--"] + flags,
                           args.repeat)
            analyzer = measure(["clang++-22", "--analyze", "-o", os.devnull] +
                               flags + [path], args.repeat)
            compared.append((os.path.relpath(path, ROOT), parse_time,
                             lint_time, tidy, analyzer))

    total_parse = sum(r[2] for r in rows)
    total_lint = sum(r[3] for r in rows)
    header = ("| file | lines | clang -fsyntax-only (ms) | cuda-async-lint "
              "(ms) | analysis (ms) | lint / parse | parse peak (MiB) | "
              "lint peak (MiB) |")
    table = [header, "|" + " --- |" * 8]
    for name, lines, parse, lint_t, parse_kb, lint_kb in rows:
        table.append("| %s | %d | %.0f | %.0f | %.0f | %.2f | %.0f | %.0f |" %
                     (name, lines, parse * 1e3, lint_t * 1e3,
                      (lint_t - parse) * 1e3, lint_t / parse,
                      parse_kb / 1024, lint_kb / 1024))
    table.append("| **total** | %d | %.0f | %.0f | %.0f | %.2f | | |" %
                  (sum(r[1] for r in rows), total_parse * 1e3,
                   total_lint * 1e3, (total_lint - total_parse) * 1e3,
                   total_lint / total_parse))

    version = subprocess.run([lint, "--version"], capture_output=True,
                             text=True).stdout.strip()
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f
                       if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    context = [
        "Run on %s by `scripts/benchmark.py%s%s --repeat %d`." %
        (datetime.date.today().isoformat(),
         " --toolkit" if args.toolkit else "",
         " --compare" if args.compare else "", args.repeat),
        "",
        "- %s; %s, %d cores" % (version, cpu, os.cpu_count()),
        "- CUDA declarations: %s" %
        ("the toolkit in /usr/local/cuda" if args.toolkit else
         "bundled (--use-bundled-cuda)"),
        "- Median wall time of %d runs each, after a discarded warm-up run; peak resident memory is the "
        "largest of them. 'analysis' is the lint time minus the parse time: "
        "matching, provenance, summaries and the pending-transfer dataflow, "
        "every check enabled." % args.repeat,
    ]
    if compared:
        table += ["", "Beside the tools users run today, on the same files "
                  "with the same flags: clang-tidy-22 with `--checks=-*,%s`, "
                  "and the static analyzer (`clang++-22 --analyze`). "
                  "The last row's shares are our analysis time (lint minus "
                  "parse) over theirs (their time minus the parse), over all "
                  "the files: a file's own differences are within run-to-run "
                  "noise." % TIDY_CHECKS, "",
                  "| file | parse (ms) | cuda-async-lint (ms) | clang-tidy "
                  "(ms) | --analyze (ms) | lint / tidy / analyze peak (MiB) |",
                  "|" + " --- |" * 6]
        sums = [0.0] * 5
        for name, parse, lint_t, (tidy, tidy_kb), (an, an_kb) in compared:
            row = next(r for r in rows if r[0] == name)
            table.append(
                "| %s | %.0f | %.0f | %.0f | %.0f | %.0f / %.0f / %.0f |" % (
                    name, parse * 1e3, lint_t * 1e3, tidy * 1e3, an * 1e3,
                    row[5] / 1024, tidy_kb / 1024, an_kb / 1024))
            for i, v in enumerate((parse, lint_t, tidy, an)):
                sums[i] += v
        parse, lint_t, tidy, an = sums[:4]
        table.append("| **total** | %.0f | %.0f | %.0f | %.0f | |" % (
            parse * 1e3, lint_t * 1e3, tidy * 1e3, an * 1e3))
        table.append("| **our analysis, as a share of theirs** | | | %.0f%% | "
                     "%.0f%% | |" % (100 * (lint_t - parse) / (tidy - parse),
                                     100 * (lint_t - parse) / (an - parse)))
    return publish(args, "## CUDA toolkit headers" if args.toolkit else
                   "## Bundled CUDA declarations", context, table)


PREAMBLE = (
    "# Benchmarks\n\n"
    "Analysis time next to the time clang takes to parse the same files with\n"
    "the same command, on the test corpus and the examples, beside\n"
    "clang-tidy and the static analyzer; how each check grows with function\n"
    "size; parallel runs and the cache. Each section is the output of\n"
    "`scripts/benchmark.py` with the options its first line names, plus\n"
    "`--markdown docs/benchmarks.md`: a run replaces its own section. Never\n"
    "a timed test: rerun it on the machine you care about.\n")


def publish(args, heading, context, table):
    """Prints a section, and writes it into --markdown under heading."""
    report = "\n".join(context + [""] + table) + "\n"
    print(report)
    if args.markdown:
        write_section(args.markdown, heading, report)
    return 0


def write_section(path, heading, body):
    """Replaces (or adds) the section under heading in the markdown file."""
    sections = {}
    if os.path.exists(path):
        current = None
        for line in open(path).read().splitlines():
            if line.startswith("## "):
                current = line
                sections[current] = []
            elif current:
                sections[current].append(line)
    sections[heading] = [""] + body.rstrip("\n").splitlines()
    with open(path, "w") as f:
        f.write(PREAMBLE)
        for name in sorted(sections):
            f.write("\n" + name + "\n" +
                    "\n".join(sections[name]).rstrip() + "\n")


if __name__ == "__main__":
    sys.exit(main())
