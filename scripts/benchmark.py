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

With --shapes it generates, for each control-flow shape of
scripts/benchmark_shapes.py (an else-if chain, a switch, sequential ifs,
nesting, labels and gotos, one statement of N calls, N copies in one block)
and N = --sizes (1000,2000,4000,8000), one function with N copies, and
times the driver (its own split of parse and analysis, and its CPU and peak
memory) against clang++ -fsyntax-only on the same file: the goals are an
analysis within the parse's CPU time, a peak within 1.5x the parse's, and
linear growth. With --findings the copies are from pageable memory (a
finding each), each shape written a statement a line and all on one line,
and one run writes every report format; it times the whole process as a
user's `time` would against the parse: the goals are at most 2x its CPU
time and 1.5x its peak.

With --database it generates a compilation database of --files units and
times -j 1 against -j 2, and a cold run against a warm one with --cache-dir.

With --project DIR it times a real project's compilation database
(DIR/compile_commands.json; scripts/corpus-database.py writes one for a
checkout that has none): per unit, the worker's split of parse and analysis
(--verbose, --repeat runs, median); and the whole program run with -p
(one parse per unit, -j 1) against clang++
-fsyntax-only over the same units, in CPU time. --name names the corpus in
the section's heading. With --memory it measures instead the whole process
tree's memory (driver, workers and parked parses summed) of the whole-program
run at each -j of --jobs and each --parked-memory of --budgets, and the units
parsed again under each budget.

With --program it generates programs of --units host units that call each
other across units (each unit's findings rest on three others' summaries)
and times the whole-program run of each: CPU per unit, the resolution step
and the parent's peak memory (--verbose), the peak of any process; then the
largest as an 8-shard CI matrix run one shard after another.

  scripts/benchmark.py [--build build] [--repeat 5] [--toolkit]
                       [--compare | --scaling [--sizes 625,...] |
                        --shapes [--findings] [--sizes 1000,...] |
                        --database [--files 40] |
                        --project DIR [--name NAME]
                                  [--memory [--jobs 1,N] [--budgets ...]] |
                        --program [--units 250,500,1000,2000]]
                       [--markdown docs/benchmarks.md]
"""
import argparse
import datetime
import glob
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchmark_calls  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, cwd=None):
    """Wall seconds, CPU seconds (user + system, the process and the workers
    it waited for) and peak resident kilobytes of one run (in cwd), and its
    exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, code


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


class Timing:
    """Medians of wall and CPU seconds over the runs of one command, and the
    largest peak resident memory (KiB)."""

    def __init__(self, walls, cpus, rss):
        self.wall = statistics.median(walls)
        self.cpu = statistics.median(cpus)
        self.fastest_cpu = min(cpus)
        self.kb = max(rss)


def interleaved(argvs, repeat):
    """Times each command of argvs repeat times, one run of each in turn
    (the order rotated every round) so that a slow stretch of the machine
    falls on all of them alike. A warm-up run of each comes first and is
    discarded (file system caches). Returns one Timing per command."""
    for argv in argvs:
        run(argv)
    walls = [[] for _ in argvs]
    cpus = [[] for _ in argvs]
    rss = [[] for _ in argvs]
    for round_ in range(repeat):
        for k in range(len(argvs)):
            i = (k + round_) % len(argvs)
            elapsed, cpu, kb, code = run(argvs[i])
            if code not in (0, 1):
                raise SystemExit("%s exited %d" % (" ".join(argvs[i]), code))
            walls[i].append(elapsed)
            cpus[i].append(cpu)
            rss[i].append(kb)
    return [Timing(w, c, r) for w, c, r in zip(walls, cpus, rss)]


PHASES = re.compile(r"parsed in ([0-9.]+) ms, analysed in ([0-9.]+) ms")


def phases(lint_argv, repeat):
    """The worker's own split of one file's time, from --verbose: median
    parse and analysis milliseconds over repeat runs. Measured in one
    process, a moment apart, they are not disturbed by what else the machine
    does between runs, as the comparison of two processes is."""
    parse, analysis = phase_runs(lint_argv, repeat)
    return statistics.median(parse), statistics.median(analysis)


def phase_runs(lint_argv, repeat):
    """The parse and analysis milliseconds of each of repeat runs."""
    parse, analysis = [], []
    for _ in range(repeat):
        out = subprocess.run(lint_argv + ["--verbose"], capture_output=True,
                             text=True)
        m = PHASES.search(out.stderr)
        if not m:
            raise SystemExit("no phase times from %s:\n%s" %
                             (" ".join(lint_argv), out.stderr))
        parse.append(float(m.group(1)))
        analysis.append(float(m.group(2)))
    return parse, analysis


def growth_exponent(points):
    """k of time = c * N^k, fitted by least squares to log time over log N:
    1.00 is linear."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys)) /
            sum((x - mx) ** 2 for x in xs))


def measure(argv, repeat):
    """Median wall seconds and peak KiB of one command alone."""
    t = interleaved([argv], repeat)[0]
    return t.wall, t.kb


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
    """A table per shape of (operations, lines, the worker's parse, each
    check's analysis alone and all together), and how the tool's time (parse
    plus analysis) grew over the last doubling, over the parse's growth. The
    worker's own split (--verbose) is used: parse and analysis measured in
    one process, a moment apart, so a check's growth is not lost in the
    run-to-run noise of whole processes."""
    tables = []
    sizes = [int(n) for n in args.sizes.split(",")]
    configs = [["--checks=-*," + c] for c in SCALING_CHECKS] + [[]]
    with tempfile.TemporaryDirectory() as tmp:
        for title, shape in SHAPES:
            rows = []
            for ops in sizes:
                path = os.path.join(tmp, "shape%d.cu" % ops)
                with open(path, "w") as f:
                    f.write("#include <cuda_runtime.h>\n"
                            "__global__ void k(float *p) {}\n" + shape(ops))
                split = [phases([lint, "--use-bundled-cuda"] + c + [path],
                                args.repeat) for c in configs]
                rows.append((ops, sum(1 for _ in open(path)), split))
            header = ("| operations | lines | parse (ms) | " +
                      " | ".join(c[len("cuda-async-"):] + " (ms)"
                                 for c in SCALING_CHECKS) +
                      " | all checks (ms) |")
            table = ["### " + title.capitalize(), "", header,
                     "|" + " --- |" * (len(SCALING_CHECKS) + 4)]
            for ops, lines, split in rows:
                parse = statistics.median(p for p, _ in split)
                table.append("| %d | %d | %.0f | %s |" % (
                    ops, lines, parse,
                    " | ".join("%.1f" % a for _, a in split)))
            if len(rows) >= 2:
                (_, _, before), (_, _, after) = rows[-2], rows[-1]
                # (P2 + A2) / (P1 + A1) over P2 / P1, each column with the
                # parse of its own runs.
                growth = [((p2 + a2) / (p1 + a1)) / (p2 / p1)
                          for (p1, a1), (p2, a2) in zip(before, after)]
                parse_growth = (statistics.median(p for p, _ in after) /
                                statistics.median(p for p, _ in before))
                table.append(
                    "| the tool's growth over the last doubling, over the "
                    "parse's | | %.2f | %s |" % (
                        parse_growth, " | ".join("%.2f" % g for g in growth)))
            tables += table + [""]
    return tables


DATABASE_HEADER = """#pragma once
#include <cuda_runtime.h>
__global__ void k(float *p);
"""


SHAPE_SIZES = "1000,2000,4000,8000"


def raise_stack_limit():
    """Clang's parser recurses once per nesting level: 8,000 levels need
    more than the usual 8 MiB of stack, for clang++ and the driver alike
    (both crash without it; the driver says so and goes on)."""
    import resource
    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = 1 << 30
    resource.setrlimit(resource.RLIMIT_STACK, (
        want if hard == resource.RLIM_INFINITY else min(want, hard), hard))


def growth_table(intro, columns, sizes, rows):
    """The lines of a growth table: each row's labels (under columns), its
    fastest milliseconds at each of sizes, their growth from the first size
    to the last over the sizes', and the fitted exponent."""
    lines = ["", intro, "",
             "| " + " | ".join(columns) + " | " +
             " | ".join("N = %d (ms)" % n for n in sizes) +
             " | growth over N's | k |",
             "|" + " --- |" * (len(columns) + len(sizes) + 2)]
    for labels, fastest in rows:
        (n1, t1), (n2, t2) = fastest[0], fastest[-1]
        lines.append("| %s | %s | %.2f | %.2f |" % (
            " | ".join(labels), " | ".join("%.0f" % t for _, t in fastest),
            (t2 / t1) / (n2 / n1), growth_exponent(fastest)))
    return lines


def shapes(args, lint):
    """A row per (shape, N): clang++ -fsyntax-only's CPU time and peak, the
    driver's own split (parse, analysis) and its CPU time and peak, the
    analysis over the parse, the peak over clang's; per shape, the
    analysis's growth from the smallest N to the largest over N's, on the
    fastest of the runs at each N (noise on a shared machine only ever adds
    time; at N = 1,000 an analysis takes 20-50 ms, where a busy moment
    doubles a median), and the exponent fitted to those fastest runs."""
    import benchmark_shapes
    raise_stack_limit()
    sizes = [int(n) for n in args.sizes.split(",")]
    table = ["| shape | N | clang parse CPU (ms) | clang peak (MiB) | "
             "lint parse (ms) | lint analysis (ms) | analysis / parse | "
             "lint CPU (ms) | lint peak (MiB) | peak / clang's |",
             "|" + " --- |" * 10]
    growth = []
    with tempfile.TemporaryDirectory() as tmp:
        for title, shape in benchmark_shapes.SHAPES:
            fastest = []
            for n in sizes:
                path = benchmark_shapes.write(tmp, shape, n)
                argv = [lint, "--use-bundled-cuda", path]
                clang_t, lint_t = interleaved(
                    [parse_command(lint, ["--use-bundled-cuda"], path), argv],
                    args.repeat)
                parse_runs, analysis_runs = phase_runs(argv, args.repeat)
                parse_ms = statistics.median(parse_runs)
                analysis_ms = statistics.median(analysis_runs)
                table.append(
                    "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %.0f | "
                    "%.0f | %.2f |" % (
                        title, n, clang_t.cpu * 1e3, clang_t.kb / 1024,
                        parse_ms, analysis_ms, analysis_ms / parse_ms,
                        lint_t.cpu * 1e3, lint_t.kb / 1024,
                        lint_t.kb / clang_t.kb))
                fastest.append((n, min(analysis_runs)))
            growth.append(([title], fastest))
    return table + growth_table(
        "The analysis's growth from N = %d to N = %d, on the fastest of the "
        "%d runs at each N: the time's growth over N's, and k of a time "
        "proportional to N^k fitted to every N (1.00: linear):" % (
            sizes[0], sizes[-1], args.repeat), ["shape"], sizes, growth)


REPORT_FORMATS = ["text", "sarif", "markdown", "html", "rdjson",
                  "codeclimate"]


def shapes_with_findings(args, lint):
    """A row per (shape, layout, N) of copies from pageable memory, each a
    finding, a statement a line and all on one line: clang++ -fsyntax-only's
    CPU time and peak against the whole process's as a user's `time` sees
    it (the driver, its workers, every report written: JSON and, through
    --report, each other format); per shape and layout, the growth of the
    driver's CPU time from the smallest N to the largest, on the fastest of
    the runs at each N."""
    import benchmark_shapes
    raise_stack_limit()
    sizes = [int(n) for n in args.sizes.split(",")]
    table = ["| shape | layout | N | findings | clang CPU (ms) | "
             "clang peak (MiB) | lint CPU (ms) | lint peak (MiB) | "
             "CPU / clang's | peak / clang's |", "|" + " --- |" * 10]
    growth = []
    with tempfile.TemporaryDirectory() as tmp:
        for title, shape in benchmark_shapes.SHAPES:
            for layout, one_line in benchmark_shapes.LAYOUTS:
                fastest = []
                for n in sizes:
                    path = benchmark_shapes.write(tmp, shape, n, pageable=True,
                                                  one_line=one_line)
                    out = os.path.join(tmp, "report")
                    argv = [lint, "--use-bundled-cuda", path, "--format=json",
                            "-o", out + ".json"] + [
                        "--report=%s:%s.%s" % (fmt, out, fmt)
                        for fmt in REPORT_FORMATS]
                    clang_t, lint_t = interleaved(
                        [parse_command(lint, ["--use-bundled-cuda"], path),
                         argv], args.repeat)
                    with open(out + ".json") as f:
                        findings = len(json.load(f)["findings"])
                    table.append(
                        "| %s | %s | %d | %d | %.0f | %.0f | %.0f | %.0f | "
                        "%.2f | %.2f |" % (
                            title, layout, n, findings, clang_t.cpu * 1e3,
                            clang_t.kb / 1024, lint_t.cpu * 1e3,
                            lint_t.kb / 1024, lint_t.cpu / clang_t.cpu,
                            lint_t.kb / clang_t.kb))
                    fastest.append((n, lint_t.fastest_cpu))
                growth.append(([title, layout],
                               [(n, t * 1e3) for n, t in fastest]))
    return table + one_format_per_run(args, lint, sizes) + growth_table(
        "The whole process's CPU time from N = %d to N = %d, on the fastest "
        "of the %d runs at each N: its growth over N's, and k of a time "
        "proportional to N^k fitted to every N (1.00: linear):" % (
            sizes[0], sizes[-1], args.repeat), ["shape", "layout"], sizes,
        growth)


def one_format_per_run(args, lint, sizes):
    """At the goal's N (4000, else the largest size), each output format in
    a run of its own, as a user who asks for one report runs it: the whole
    process's CPU time over clang's, per shape, layout and format."""
    import benchmark_shapes
    n = 4000 if 4000 in sizes else sizes[-1]
    formats = ["json"] + REPORT_FORMATS
    table = ["", "Each format in a run of its own at N = %d (`--format=F -o "
             "FILE`): the whole process's CPU time over clang's, medians of "
             "%d runs; the last column is the slowest format's:" % (
                 n, args.repeat), "",
             "| shape | layout | clang CPU (ms) | " +
             " | ".join(formats) + " | slowest |",
             "|" + " --- |" * (len(formats) + 4)]
    with tempfile.TemporaryDirectory() as tmp:
        for title, shape in benchmark_shapes.SHAPES:
            for layout, one_line in benchmark_shapes.LAYOUTS:
                path = benchmark_shapes.write(tmp, shape, n, pageable=True,
                                              one_line=one_line)
                argvs = [parse_command(lint, ["--use-bundled-cuda"], path)] + [
                    [lint, "--use-bundled-cuda", path, "--format=" + fmt,
                     "-o", os.path.join(tmp, "report." + fmt)]
                    for fmt in formats]
                timings = interleaved(argvs, args.repeat)
                clang = timings[0].cpu
                ratios = [t.cpu / clang for t in timings[1:]]
                table.append("| %s | %s | %.0f | %s | %.2f |" % (
                    title, layout, clang * 1e3,
                    " | ".join("%.2f" % r for r in ratios), max(ratios)))
    return table


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

        one_t, two_t = interleaved([base + ["-j", "1"], base + ["-j", "2"]],
                                   args.repeat)
        one, one_kb, two, two_kb = one_t.wall, one_t.kb, two_t.wall, two_t.kb
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


# A host unit of a generated program: it defines an allocator (pageable or
# pinned, by unit), a helper that fills a shared struct's field, and an
# upload helper, and calls those of three other units, so that its findings
# rest on their summaries (a callee's return, a field's stores, a
# parameter's callers).
PROGRAM_UNIT = """#include <cuda_runtime.h>
#include <cstdlib>
#include "frame.h"

float *make_buffer_{j}(size_t n);
void fill_frame_{k}(Frame &f);
void upload_{m}(float *dev, const float *host, size_t n, cudaStream_t s);

float *make_buffer_{i}(size_t n) {{
{alloc}
}}

void fill_frame_{i}(Frame &f) {{ f.pixels = make_buffer_{i}(f.n); }}

void upload_{i}(float *dev, const float *host, size_t n, cudaStream_t s) {{
  cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, s);
}}

void step_{i}(float *dev, cudaStream_t s) {{
  float *h = make_buffer_{j}(1024);
  upload_{m}(dev, h, 1024, s);
  Frame f{{nullptr, 256}};
  fill_frame_{k}(f);
  cudaMemcpyAsync(dev, f.pixels, 256 * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
}}
"""

PAGEABLE = "  return static_cast<float *>(std::malloc(n * sizeof(float)));"
PINNED = ("  float *p = nullptr;\n"
          "  cudaMallocHost(&p, n * sizeof(float));\n"
          "  return p;")


def generate_program(root, units):
    """Writes a program of units host files calling each other across
    units, and its compile_commands.json."""
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "frame.h"), "w") as f:
        f.write("#pragma once\n#include <cstddef>\n"
                "struct Frame { float *pixels; size_t n; };\n")
    entries = []
    for i in range(units):
        name = "unit%04d.cpp" % i
        with open(os.path.join(root, name), "w") as f:
            f.write(PROGRAM_UNIT.format(
                i=i, j=(i + 1) % units, k=(7 * i + 3) % units,
                m=(13 * i + 5) % units,
                alloc=PINNED if i % 3 == 0 else PAGEABLE))
        entries.append({"directory": root, "file": name,
                        "arguments": ["c++", "-std=c++17", "-c", name]})
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f)


RESOLUTION = re.compile(r"resolution: ([0-9.]+) ms; this process's peak "
                        r"memory: ([0-9.]+) MiB")
FROM_STORE = re.compile(r"results of \d+ translation units: (\d+) from the "
                        r"summary store, (\d+) analysed")
AGAIN = re.compile(r"(\d+) translation units parsed; the findings of (\d+) "
                   r"analysed again")
PARSED_AGAIN = re.compile(r"analysed again \(.*\), (\d+) of them parsed "
                          r"again")
KEPT = re.compile(r"(\d+) parses kept for the resolution, ([\d.]+) MiB "
                  r"resident")


def program_scaling(args, lint, cuda_args):
    """A generated program of ever more units, each calling three others:
    the whole-program run (-p, -j 2), its resolution step's time and the
    parent's peak memory (--verbose), the workers' peak, and an 8-shard
    matrix of the largest program (each shard's --emit-summaries, one after
    another, then the last job: the merge and the report of the whole
    program from the merged store). Returns the table lines."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for units in [int(n) for n in args.units.split(",")]:
            root = os.path.join(tmp, "p%d" % units)
            generate_program(root, units)
            argv = [lint] + cuda_args + ["-p", root, "-j", "2",
                                         "--format=json", "--verbose"]
            start = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            err = proc.stderr.read()
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            m, again = RESOLUTION.search(err), AGAIN.search(err)
            if not m or not again:
                raise SystemExit("no resolution figures:\n" + err[-2000:])
            rows.append((units, wall, usage.ru_utime + usage.ru_stime,
                         float(m.group(1)), float(m.group(2)),
                         usage.ru_maxrss / 1024, int(again.group(2))))
        units = rows[-1][0]
        root = os.path.join(tmp, "p%d" % units)
        # The largest program's parses alone: clang++ -fsyntax-only of each
        # unit with the driver's command (from the last run's --verbose).
        parses = driver_commands(err, root)
        syntax_cpu = sum(run(p, root)[1] for p in parses)
        # One parse alone: a unit of the largest program, without the
        # program's summaries.
        _, _, alone_kb, _ = run([lint] + cuda_args + [
            "-p", root, "--whole-program=false", "-j", "1",
            os.path.join(root, "unit0000.cpp")])
        shards = 8
        start = time.perf_counter()
        cpu = 0.0
        peak = 0
        stores = []
        for i in range(1, shards + 1):
            store = os.path.join(tmp, "s%d.json" % i)
            stores.append(store)
            _, c, kb, code = run([lint] + cuda_args + [
                "-p", root, "--shard=%d/%d" % (i, shards),
                "--emit-summaries=" + store])
            cpu, peak = cpu + c, max(peak, kb)
        merged = os.path.join(tmp, "all.json")
        _, c, merge_kb, _ = run([lint, "--merge-summaries=" + merged] + stores)
        cpu, peak = cpu + c, max(peak, merge_kb)
        # One shard's store read alone: what the merge holds at a time.
        _, _, one_kb, _ = run([lint, "--merge-summaries=" +
                               os.path.join(tmp, "one.json"), stores[0]])
        argv = [lint] + cuda_args + ["-p", root, "-j", "2",
                                     "--summaries=" + merged, "--format=json",
                                     "--verbose"]
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss)
        m = FROM_STORE.search(err)
        if not m:
            raise SystemExit("no result figures:\n" + err[-2000:])
        matrix = (time.perf_counter() - start, cpu, peak / 1024,
                  int(m.group(1)), int(m.group(2)), alone_kb / 1024,
                  os.path.getsize(merged) / 2**20, merge_kb / 1024,
                  one_kb / 1024)
    table = ["| units | wall (s) | CPU (s) | CPU per unit (ms) | resolution "
             "(ms) | resolution per unit (ms) | parent's peak (MiB) | peak of "
             "any process (MiB) | analysed again |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for units, wall, cpu, res, parent, peak, again in rows:
        table.append("| %d | %.1f | %.1f | %.1f | %.0f | %.3f | %.0f | %.0f | "
                     "%d |" % (units, wall, cpu, 1e3 * cpu / units, res,
                               res / units, parent, peak, again))
    table += ["", "The %d-unit program as an 8-shard CI matrix, the shards one "
              "after another (each shard's `--emit-summaries`, then "
              "`--merge-summaries` and the report from the merged store, "
              "`--summaries`, `-j 2`): %.1f s wall, %.1f s CPU, peak of any "
              "process %.0f MiB; the last job took %d results from the store "
              "and parsed %d units again. One unit linted alone "
              "(`--whole-program=false`) peaks at %.0f MiB; the merged store "
              "is %.1f MiB of JSON. The merge peaked at %.0f MiB, merging one "
              "shard's store alone at %.0f MiB (goal: the merge bounded by "
              "one shard's store). The %d-unit whole-program run's CPU "
              "against `clang++ -fsyntax-only` of its %d units with the "
              "driver's commands (%.1f s): %.2fx (goal: at most 1.10)."
              % (units, matrix[0], matrix[1], matrix[2], matrix[3],
                 matrix[4], matrix[5], matrix[6], matrix[7], matrix[8],
                 units, len(parses), syntax_cpu, rows[-1][2] / syntax_cpu)]
    return table


def driver_commands(err, root):
    """The clang++ -fsyntax-only command of each unit in root, from the
    compile commands a --verbose run printed to err."""
    parses = []
    names = set(os.listdir(root))
    for line in err.splitlines():
        if not line.startswith("cuda-async-lint: "):
            continue
        path, _, rest = line[len("cuda-async-lint: "):].partition(": ")
        # The command line (its program is the database's compiler); the
        # driver always adds -fno-caret-diagnostics.
        if (os.path.dirname(path) == root and
                os.path.basename(path) in names and
                " -fno-caret-diagnostics " in rest):
            parses.append(["clang++-22", "-fsyntax-only"] +
                          shlex.split(rest)[1:])
    return parses


def call_structures(args, lint, cuda_args):
    """Each call structure of scripts/benchmark_calls.py, --files units:
    the whole-program run (-p, -j 1; CPU of the process and every process
    it reaped) against clang++ -fsyntax-only of each unit with the driver's
    own command, medians of --repeat runs; the units checked again, and
    those parsed again, from --verbose; and the run that keeps no parse
    (--parked-memory=0). Returns the table lines."""
    table = ["| structure | units | lint CPU (s) | parses' CPU (s) | lint / "
             "parses | checked again | parsed again | lint / parses, no "
             "parse kept |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        for structure in benchmark_calls.STRUCTURES:
            root = os.path.join(tmp, structure)
            benchmark_calls.generate(root, structure, args.files)
            argv = [lint] + cuda_args + ["-p", root, "-j", "1",
                                         "--format=json"]
            err = subprocess.run(argv + ["--verbose"], capture_output=True,
                                 text=True).stderr
            m = AGAIN.search(err)
            parsed_again = PARSED_AGAIN.search(err)
            if not m or not parsed_again:
                raise SystemExit("no figures:\n" + err[-2000:])
            parses = driver_commands(err, root)
            lint_cpu, none_cpu, syntax_cpu = [], [], []
            for _ in range(args.repeat):
                lint_cpu.append(run(argv)[1])
                none_cpu.append(run(argv + ["--parked-memory=0"])[1])
                syntax_cpu.append(sum(run(p, root)[1] for p in parses))
            whole = statistics.median(lint_cpu)
            none = statistics.median(none_cpu)
            syntax = statistics.median(syntax_cpu)
            table.append("| %s | %d | %.2f | %.2f | %.2f | %s | %s | %.2f "
                         "|" % (structure, args.files, whole, syntax,
                                whole / syntax, m.group(2),
                                parsed_again.group(1), none / syntax))
    return table


def project(args, lint):
    """Times a real project's database: the per-unit split of parse and
    analysis, and the whole-program run against -fsyntax-only. Returns the
    context lines and the table lines."""
    root = os.path.abspath(args.project)
    with open(os.path.join(root, "compile_commands.json")) as f:
        entries = json.load(f)
    directory = {os.path.join(e["directory"], e["file"]): e["directory"]
                 for e in entries}
    files = sorted(directory)
    base = [lint, "-p", root, "--whole-program=false", "-j", "1"]
    rows, parses = [], []
    for path in files:
        out = subprocess.run(base + ["--verbose", path], capture_output=True,
                             text=True)
        if not PHASES.search(out.stderr):
            rows.append((os.path.relpath(path, root), None, None))
            continue
        parse, analysis = phases(base + [path], args.repeat)
        rows.append((os.path.relpath(path, root), parse, analysis))
        prefix = "cuda-async-lint: %s: " % path
        for line in out.stderr.splitlines():
            if line.startswith(prefix):
                # The command the driver runs (--verbose), its compiler
                # replaced: clang's parse alone, in the entry's directory.
                argv = shlex.split(line[len(prefix):])
                if argv:
                    parses.append((["clang++-22", "-fsyntax-only"] + argv[1:],
                                   directory[path]))
    table = ["| unit | parse (ms) | analysis (ms) | analysis / parse |",
             "| --- | --- | --- | --- |"]
    shares = []
    for name, parse, analysis in rows:
        if parse is None:
            table.append("| %s | did not parse | | |" % name)
            continue
        shares.append(analysis / parse)
        table.append("| %s | %.0f | %.1f | %.1f%% |" % (
            name, parse, analysis, 100 * analysis / parse))
    # The whole program, one process at a time, against the parses alone.
    whole = [lint, "-p", root, "-j", "1", "--format=json"]
    syntax_cpu = []
    for _ in range(args.repeat):
        syntax_cpu.append(sum(run(argv, cwd)[1] for argv, cwd in parses))
    whole_t = interleaved([whole], args.repeat)[0]
    syntax = statistics.median(syntax_cpu)
    worst = max(rows, key=lambda r: -1 if r[1] is None else r[2] / r[1])
    load = os.getloadavg()[0]
    context = [
        "Run on %s by `scripts/benchmark.py --project %s --repeat %d` "
        "(load average %.2f at the end; %d cores)." % (
            datetime.date.today().isoformat(), args.name or root,
            args.repeat, load, os.cpu_count()), "",
        "Per unit: the worker's own split (`--verbose`, one unit at a time, "
        "`--whole-program=false`), medians of %d runs. %d of %d units parse. "
        "Analysis over parse: median %.1f%%, largest %.1f%% (%s); goal: 5%% "
        "at the median, 10%% on every file." % (
            args.repeat, len(shares), len(rows),
            100 * statistics.median(shares), 100 * max(shares), worst[0]), "",
        "Whole program (`-p`, one parse per unit: its summary and its "
        "findings, `-j 1`): %.1f s CPU, peak %.0f MiB, against %.1f s CPU for "
        "`clang++ -fsyntax-only` over the same units with the driver's "
        "commands: %.2fx (goal: 1.10x)." % (
            whole_t.cpu, whole_t.kb / 1024, syntax, whole_t.cpu / syntax)]
    return context, table


def project_memory(args, lint):
    """The whole process tree's memory on a real project's database: the
    whole-program run (-p) at each of --jobs with each --parked-memory of
    --budgets, its tree's peak summed Pss (scripts/tree_memory.py: the
    driver, its workers and the parked parses together, as the machine
    holds them), the most processes at once, CPU and wall time, and the
    units parsed again because no parse of theirs was kept. Returns the
    context lines and the table lines."""
    import tree_memory
    root = os.path.abspath(args.project)
    table = ["| `-j` | `--parked-memory` (MiB) | wall (s) | CPU (s) | tree "
             "peak, summed Pss (MiB) | processes at once | parses kept "
             "(resident MiB) | checked again | parsed again |",
             "|" + " --- |" * 9]
    with tempfile.TemporaryDirectory() as tmp:
        err = os.path.join(tmp, "stderr")
        for jobs in [int(j) for j in args.jobs.split(",")]:
            for budget in args.budgets.split(","):
                argv = [lint, "-p", root, "-j", str(jobs), "--format=json",
                        "-o", os.path.join(tmp, "report.json"), "--verbose"]
                if budget != "default":
                    argv.append("--parked-memory=" + budget)
                runs = [tree_memory.run(argv, stderr_path=err)
                        for _ in range(args.repeat)]
                text = open(err).read()
                again = AGAIN.search(text)
                parsed_again = PARSED_AGAIN.search(text)
                kept = KEPT.search(text)
                table.append("| %d | %s | %.1f | %.1f | %.0f | %d | %s | %s "
                             "| %s |"
                             % (jobs, budget,
                                statistics.median(r[0] for r in runs),
                                statistics.median(r[1] for r in runs),
                                max(r[3] for r in runs) / 1024,
                                max(r[4] for r in runs),
                                "%s (%.0f)" % (kept.group(1),
                                               float(kept.group(2)))
                                if kept else "0",
                                again.group(2) if again else "0",
                                parsed_again.group(1) if parsed_again
                                else "0"))
    mem_kb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 1024
    context = [
        "Run on %s by `scripts/benchmark.py --project %s --memory --jobs %s "
        "--budgets %s --repeat %d` (%d cores, %.0f GiB; the default "
        "`--parked-memory` here: %d MiB)." % (
            datetime.date.today().isoformat(), args.name or root, args.jobs,
            args.budgets, args.repeat, os.cpu_count(), mem_kb / 2 ** 20,
            min(2048, mem_kb // 4 // 1024)), "",
        "The whole-program run (`-p`, every report written as JSON) at each "
        "`-j` and parse budget. The tree's peak is the largest sum, sampled "
        "every 20 ms, of the proportional set sizes (Pss) of the driver, its "
        "workers and its parked parses: what the machine holds at once "
        "(getrusage's peak is one process's). Checked again: units whose "
        "findings the whole program decided otherwise; parsed again: those "
        "of them whose parse was not kept. Wall and CPU are medians of %d "
        "runs, the peak the largest." % args.repeat]
    return context, table


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
    parser.add_argument("--shapes", action="store_true",
                        help="time generated control-flow shapes that are "
                             "not loops against the parse")
    parser.add_argument("--findings", action="store_true",
                        help="with --shapes: copies from pageable memory, a "
                             "finding each, a line each and on one line, "
                             "every report format written")
    parser.add_argument("--database", action="store_true",
                        help="time a generated database: -j 1 against -j 2, "
                             "and the cache")
    parser.add_argument("--files", type=int, default=40,
                        help="translation units of the --database")
    parser.add_argument("--compare", action="store_true",
                        help="time clang-tidy (bugprone-*,performance-*) and "
                             "clang --analyze on each file too")
    parser.add_argument("--project",
                        help="a directory with a compile_commands.json")
    parser.add_argument("--name", help="the --project corpus, for the docs")
    parser.add_argument("--memory", action="store_true",
                        help="with --project: the whole process tree's "
                             "memory at each of --jobs and --budgets")
    parser.add_argument("--jobs", default="1,%d" % os.cpu_count(),
                        help="-j values, for --memory")
    parser.add_argument("--budgets", default="default,1024,512,0",
                        help="--parked-memory values in MiB ('default': "
                             "the driver's own), for --memory")
    parser.add_argument("--program", action="store_true",
                        help="time generated programs of --units host units "
                             "calling each other, whole and as a shard "
                             "matrix")
    parser.add_argument("--calls", action="store_true",
                        help="time call structures across --files units "
                             "(ring, chain, star) against their parses")
    parser.add_argument("--units", default="250,500,1000,2000",
                        help="program sizes, for --program")
    parser.add_argument("--markdown")
    args = parser.parse_args()

    lint = os.path.join(args.build, "bin", "cuda-async-lint")
    if args.project and args.memory:
        context, table = project_memory(args, lint)
        return publish(args, "## A real project's memory, whole tree: %s" % (
            args.name or os.path.basename(os.path.abspath(args.project))),
                       context, table)
    if args.project:
        context, table = project(args, lint)
        return publish(args, "## A real project: %s" % (
            args.name or os.path.basename(os.path.abspath(args.project))),
                       context, table)
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
            "shapes. The worker's own split of each run (`--verbose`): the "
            "parse, then the analysis of one check at a time "
            "(`--checks=-*,<check>`) and of all of them; medians of %d runs. "
            "The last row divides the tool's growth (parse plus analysis) over "
            "the last doubling by the parse's, column by column (the parse "
            "column shows the parse's own growth): 1.00 grows exactly like "
            "the parse; the goal is at most 1.30."
            % args.repeat]
        return publish(args, "## Scaling with function size", context, table)

    if args.shapes and args.findings:
        if args.sizes == DEFAULT_SIZES:
            args.sizes = SHAPE_SIZES
        table = shapes_with_findings(args, lint)
        context = [
            "Run on %s by `scripts/benchmark.py --shapes --findings --repeat "
            "%d%s` (%d cores)." % (
                datetime.date.today().isoformat(), args.repeat,
                "" if args.sizes == SHAPE_SIZES else " --sizes " + args.sizes,
                os.cpu_count()),
            "",
            "The same shapes with N copies from pageable memory, each a "
            "finding, a statement a line and all on one line "
            "(scripts/benchmark_shapes.py; bundled declarations), all checks, "
            "every finding written in every format by one run (`--format=json"
            " -o` and `--report` for %s). Clang's columns are `clang++ "
            "-fsyntax-only` with the driver's own command; the driver's CPU "
            "and peak are the whole process's (driver and workers, reports "
            "written), as `time` sees it; medians of %d runs. Goals: CPU / "
            "clang's at most 2.00 and peak / clang's at most 1.50 at N = "
            "4000, growth linear." % (", ".join(REPORT_FORMATS), args.repeat)]
        return publish(args, "## Shapes with a finding per copy, on one line "
                       "or many", context, table)
    if args.shapes:
        if args.sizes == DEFAULT_SIZES:
            args.sizes = SHAPE_SIZES
        table = shapes(args, lint)
        context = [
            "Run on %s by `scripts/benchmark.py --shapes --repeat %d%s` "
            "(%d cores)." % (datetime.date.today().isoformat(), args.repeat,
                             "" if args.sizes == SHAPE_SIZES
                             else " --sizes " + args.sizes, os.cpu_count()),
            "",
            "One function of N copies from pinned memory in each shape "
            "(scripts/benchmark_shapes.py; bundled declarations), all checks. "
            "Clang's columns are `clang++ -fsyntax-only` with the driver's "
            "own command; the driver's parse and analysis are its own split "
            "(`--verbose`), its CPU and peak those of the whole process; "
            "medians of %d runs. Goals: analysis / parse at most 1.00 and "
            "peak / clang's at most 1.50 at N = 4000, growth linear."
            % args.repeat]
        return publish(args, "## Control-flow shapes that are not loops",
                       context, table)
    cuda_args = ["--cuda-path=/usr/local/cuda"] if args.toolkit else [
        "--use-bundled-cuda"]
    if args.calls:
        table = call_structures(args, lint, cuda_args)
        context = [
            "Run on %s by `scripts/benchmark.py --calls --files %d --repeat "
            "%d` (%d cores)." % (datetime.date.today().isoformat(),
                                 args.files, args.repeat, os.cpu_count()), "",
            "N host units (scripts/benchmark_calls.py; bundled declarations), "
            "each allocating pageable memory and handing it to a function of "
            "another unit that copies it asynchronously: a ring (unit i "
            "calls unit i+1), a chain (the last calls none) and a star (every "
            "unit calls the hub, the hub calls every unit). The whole-program "
            "run (`-p`, `-j 1`, its CPU and that of every process it reaped) "
            "against `clang++ -fsyntax-only` of each unit with the driver's "
            "own command, medians of %d runs; goal: at most 1.10. Checked "
            "again: units whose questions the whole program answered "
            "otherwise; parsed again: those of them whose parse was not kept "
            "(`--verbose`). The last column: the same run keeping no parse "
            "(`--parked-memory=0`), each unit checked again parsed again."
            % args.repeat]
        return publish(args, "## Call structures across units", context,
                       table)
    if args.program:
        table = program_scaling(args, lint, cuda_args)
        context = [
            "Run on %s by `scripts/benchmark.py --program --units %s` (load "
            "average %.2f at the end; %d cores)." % (
                datetime.date.today().isoformat(), args.units,
                os.getloadavg()[0], os.cpu_count()), "",
            "Generated programs of N host units (bundled declarations), each "
            "defining an allocator (pageable or pinned), a helper that fills "
            "a shared struct's pointer field and an upload helper, and "
            "calling those of three other units: every unit's findings rest "
            "on other units' summaries. One whole-program run each (`-p`, "
            "`-j 2`, one parse per unit): its resolution step (the program "
            "put together and every unit's questions asked again) and the "
            "parent's peak memory, from `--verbose`; the peak of any process "
            "(workers included) from `wait4`."]
        return publish(args, "## A generated program: scaling with units",
                       context, table)
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
        argvs = [[lint] + cuda_args + [path], parse_argv]
        flags = [a for a in parse_argv[2:] if a != path]
        if args.compare:
            argvs += [["clang-tidy-22", "--quiet", "--checks=-*," + TIDY_CHECKS,
                       path, "--"] + flags,
                      ["clang++-22", "--analyze", "-o", os.devnull] + flags +
                      [path]]
        timings = interleaved(argvs, args.repeat)
        lint_t, parse_t = timings[0], timings[1]
        lines = sum(1 for _ in open(path))
        rows.append((os.path.relpath(path, ROOT), lines, parse_t, lint_t,
                     phases(argvs[0], args.repeat)))
        if args.compare:
            compared.append((os.path.relpath(path, ROOT), parse_t, lint_t,
                             timings[2], timings[3]))

    def ms(seconds):
        return "%.0f" % (seconds * 1e3)

    header = ("| file | lines | parse wall (ms) | lint wall (ms) | wall ratio "
              "| parse CPU (ms) | lint CPU (ms) | CPU ratio | worker: parse / "
              "analysis (ms) | analysis / -fsyntax-only | parse peak (MiB) | lint "
              "peak (MiB) |")
    table = [header, "|" + " --- |" * 12]
    for name, lines, parse, lint_t, (w_parse, w_analysis) in rows:
        table.append("| %s | %d | %s | %s | %.2f | %s | %s | %.2f | %.0f / %.1f "
                     "| %.1f%% | %.0f | %.0f |" % (
                         name, lines, ms(parse.wall), ms(lint_t.wall),
                         lint_t.wall / parse.wall, ms(parse.cpu),
                         ms(lint_t.cpu), lint_t.cpu / parse.cpu, w_parse,
                         w_analysis, w_analysis / (10 * parse.cpu),
                         parse.kb / 1024, lint_t.kb / 1024))
    parse_wall = sum(r[2].wall for r in rows)
    lint_wall = sum(r[3].wall for r in rows)
    parse_cpu = sum(r[2].cpu for r in rows)
    lint_cpu = sum(r[3].cpu for r in rows)
    w_parse = sum(r[4][0] for r in rows)
    w_analysis = sum(r[4][1] for r in rows)
    table.append("| **total** | %d | %s | %s | %.2f | %s | %s | %.2f | %.0f / "
                 "%.1f | %.1f%% | %.0f | %.0f |" % (
                     sum(r[1] for r in rows), ms(parse_wall), ms(lint_wall),
                     lint_wall / parse_wall, ms(parse_cpu), ms(lint_cpu),
                     lint_cpu / parse_cpu, w_parse, w_analysis,
                     w_analysis / (10 * parse_cpu),
                     max(r[2].kb for r in rows) / 1024,
                     max(r[3].kb for r in rows) / 1024))
    goal = 1.05 if not args.toolkit else 1.10

    def share(r):
        """The worker's analysis over -fsyntax-only's CPU time."""
        return r[4][1] / (1e3 * r[2].cpu)

    worst = max(rows, key=share)
    over = [r[0] for r in rows if share(r) > goal - 1]
    summary = [
        "", "The analysis (the worker's own measure) is %.1f%% of "
        "`-fsyntax-only`'s CPU time over the corpus (goal: %.0f%%); per file "
        "at most %.1f%% (%s)%s. Everything the tool adds, its start (loading, "
        "the configuration, a worker process, the report) included, is "
        "%+.1f%% of the parse's CPU time and %+.1f%% of its wall time over "
        "the corpus; per file, that comparison of two processes moves by "
        "several percent from run to run on this machine, the worker's split "
        "does not." % (
            w_analysis / (10 * parse_cpu), 100 * (goal - 1), 100 * share(worst),
            worst[0], "" if not over else "; %d file(s) over %.0f%%: %s" % (
                len(over), 100 * (goal - 1), ", ".join(over)),
            100 * (lint_cpu / parse_cpu - 1),
            100 * (lint_wall / parse_wall - 1))]
    table += summary

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
        "- Medians of %d runs each, the commands of a file interleaved (one "
        "run of each in turn), after a discarded warm-up run; peak resident "
        "memory is the largest of them. Wall time is what a user waits; CPU "
        "time (user + system, the driver and its worker) is what the work "
        "costs, less disturbed by the rest of the machine. Lint against parse "
        "is everything the tool adds: its start (the configuration, a worker "
        "process, the report) and the analysis (matching, provenance, "
        "summaries, the pending-transfer dataflow), every check enabled. The "
        "worker's columns are its own split of a file's time (`--verbose`): "
        "the parse to the end of the translation unit, template instantiation "
        "included, then the checks; one process, a moment apart, so the "
        "per-file goal is judged on them." % args.repeat,
    ]
    if compared:
        table += ["", "Beside the tools users run today, on the same files "
                  "with the same flags: clang-tidy-22 with `--checks=-*,%s`, "
                  "and the static analyzer (`clang++-22 --analyze`). "
                  "CPU time, medians. The last row: our analysis (the worker's "
                  "own measure, above) over what each adds to the parse (its "
                  "time minus the parse's), over all the files." % TIDY_CHECKS,
                  "",
                  "| file | parse CPU (ms) | cuda-async-lint CPU (ms) | "
                  "clang-tidy CPU (ms) | --analyze CPU (ms) | "
                  "lint / tidy / analyze peak (MiB) |",
                  "|" + " --- |" * 6]
        rows_cpu = {"parse": 0.0, "lint": 0.0, "tidy": 0.0, "an": 0.0}
        for name, parse, lint_t, tidy, an in compared:
            table.append(
                "| %s | %s | %s | %s | %s | %.0f / %.0f / %.0f |" % (
                    name, ms(parse.cpu), ms(lint_t.cpu), ms(tidy.cpu),
                    ms(an.cpu), lint_t.kb / 1024, tidy.kb / 1024,
                    an.kb / 1024))
            for k, t in (("parse", parse), ("lint", lint_t), ("tidy", tidy),
                         ("an", an)):
                rows_cpu[k] += t.cpu
        c = rows_cpu
        table.append("| **total** | %s | %s | %s | %s | |" % (
            ms(c["parse"]), ms(c["lint"]), ms(c["tidy"]), ms(c["an"])))
        # Ours is the worker's own measure of its analysis: the difference
        # of two processes' times is noise at this size. Theirs is their time
        # minus the parse, which they add far more than run-to-run noise.
        ours = sum(r[4][1] for r in rows) / 1e3
        table.append("| **our analysis, as a share of what they add to the "
                     "parse** | | | %.0f%% | %.0f%% | |" % (
                         100 * ours / (c["tidy"] - c["parse"]),
                         100 * ours / (c["an"] - c["parse"])))
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
