#!/usr/bin/env python3
"""Times cuda-async-lint against clang -fsyntax-only on the same files.

For every file of the corpus (test/checks, examples), runs the driver with
all checks and then clang++ -fsyntax-only with exactly the command the driver
parses with (from --verbose), each --repeat times, and reports the median
wall time, the analysis overhead (lint minus parse) and the peak memory of
each. With --markdown FILE it also writes the table there (docs/benchmarks.md
holds the latest run).

With --scaling it instead generates one function of N loops (each pins,
copies, launches and synchronizes: every check has work in every loop) for
doubling N, and times each check alone and all together: a check whose time
grows faster than the parse does redoes work per matched call.

  scripts/benchmark.py [--build build] [--repeat 5] [--toolkit | --scaling]
                       [--markdown docs/benchmarks.md]
"""
import argparse
import datetime
import glob
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


LOOP = """  for (int i{n} = 0; i{n} < n; ++i{n}) {{
    float *h{n};
    cudaMallocHost(&h{n}, 64);
    cudaMemcpyAsync(d, h{n}, 64, cudaMemcpyHostToDevice, 0);
    k<<<1, 1>>>(d);
    cudaStreamSynchronize(0);
    cudaFreeHost(h{n});
  }}
"""

SCALING_CHECKS = ["cuda-async-pageable-copy", "cuda-async-pinned-alloc-in-loop",
                  "cuda-async-default-stream", "cuda-async-sync-in-loop",
                  "cuda-async-unsynchronized-access"]


def scaling(args, lint):
    """Rows of (loops, lines, parse, per-check times, all checks)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for loops in (150, 300, 600, 1200):
            path = os.path.join(tmp, "loops%d.cu" % loops)
            with open(path, "w") as f:
                f.write("#include <cuda_runtime.h>\n"
                        "__global__ void k(float *p) {}\n"
                        "void f(float *d, int n) {\n")
                f.write("".join(LOOP.format(n=i) for i in range(loops)))
                f.write("}\n")
            parse_time, _ = measure(parse_command(lint, ["--use-bundled-cuda"],
                                                  path), args.repeat)
            checks = [measure([lint, "--use-bundled-cuda",
                               "--checks=-*," + c, path], args.repeat)[0]
                      for c in SCALING_CHECKS]
            everything = measure([lint, "--use-bundled-cuda", path],
                                 args.repeat)[0]
            rows.append((loops, sum(1 for _ in open(path)), parse_time,
                         checks, everything))
    header = ("| loops | lines | clang -fsyntax-only (ms) | " +
              " | ".join(c[len("cuda-async-"):] + " (ms)"
                         for c in SCALING_CHECKS) + " | all checks (ms) |")
    table = [header, "|" + " --- |" * (len(SCALING_CHECKS) + 4)]
    for loops, lines, parse, checks, everything in rows:
        table.append("| %d | %d | %.0f | %s | %.0f |" % (
            loops, lines, parse * 1e3,
            " | ".join("%.0f" % (c * 1e3) for c in checks), everything * 1e3))
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--toolkit", action="store_true",
                        help="parse against /usr/local/cuda, not the bundled "
                             "declarations")
    parser.add_argument("--scaling", action="store_true",
                        help="time each check on one ever larger function")
    parser.add_argument("--markdown")
    args = parser.parse_args()

    lint = os.path.join(args.build, "bin", "cuda-async-lint")
    if args.scaling:
        table = scaling(args, lint)
        context = [
            "Run on %s by `scripts/benchmark.py --scaling --repeat %d`." %
            (datetime.date.today().isoformat(), args.repeat), "",
            "One generated function of N loops, each of which pins a buffer, "
            "copies from it, launches a kernel and synchronizes on the legacy "
            "stream (bundled declarations). Median wall time of %d runs; one "
            "check at a time (`--checks=-*,<check>`), then all of them. Each "
            "check should grow like the parse, about 2x per doubling."
            % args.repeat]
        report = "\n".join(context + [""] + table) + "\n"
        print(report)
        if args.markdown:
            write_section(args.markdown, "## Scaling with function size",
                          report)
        return 0

    cuda_args = ["--cuda-path=/usr/local/cuda"] if args.toolkit else [
        "--use-bundled-cuda"]
    corpus = sorted(glob.glob(os.path.join(ROOT, "test", "checks", "*.cu")) +
                    glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                    glob.glob(os.path.join(ROOT, "examples", "*.cpp")))
    if not args.toolkit:
        corpus = [f for f in corpus if not f.endswith("-toolkit.cu")]

    rows = []
    for path in corpus:
        parse_argv = parse_command(lint, cuda_args, path)
        lint_time, lint_kb = measure([lint] + cuda_args + [path], args.repeat)
        parse_time, parse_kb = measure(parse_argv, args.repeat)
        lines = sum(1 for _ in open(path))
        rows.append((os.path.relpath(path, ROOT), lines, parse_time,
                     lint_time, parse_kb, lint_kb))

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
        "Run on %s by `scripts/benchmark.py%s --repeat %d`." %
        (datetime.date.today().isoformat(),
         " --toolkit" if args.toolkit else "", args.repeat),
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
    report = "\n".join(context + [""] + table) + "\n"
    print(report)
    if args.markdown:
        write_section(args.markdown,
                      "## CUDA toolkit headers" if args.toolkit else
                      "## Bundled CUDA declarations", report)


PREAMBLE = (
    "# Benchmarks\n\n"
    "Analysis time next to the time clang takes to parse the same files with\n"
    "the same command, on the test corpus and the examples. Rerun with\n"
    "`scripts/benchmark.py --markdown docs/benchmarks.md` (bundled\n"
    "declarations) and `scripts/benchmark.py --toolkit --markdown\n"
    "docs/benchmarks.md` (the CUDA toolkit's headers); each run replaces its\n"
    "own section.\n")


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
