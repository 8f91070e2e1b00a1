#!/usr/bin/env python3
"""Checks that one parse per unit reports what two phases report, on random
programs: byte for byte, whatever the order the units end in.

A one-parse run (docs/design.md, "One parse per unit") checks each unit
against the summaries known when its worker runs and keeps its result only
if the whole program answers alike every question the analysis read; a
result kept wrongly is a report that differs from the two phases'
(--emit-summaries, then --summaries of the store without its results). This
script generates programs of a few host units that call each other's
allocators, out-parameter allocators, upload, registration and sync helpers,
store into a shared struct's field, and copy, read and free what they get,
so that findings rest on other units' answers. For each seed it compares the
two phases' JSON report with a one-parse run at -j 1 and -j 2 and with a
two-shard CI matrix, and with a one-parse run that keeps no parse
(--parked-memory=0: a unit checked again is parsed again); it exits 1 on the first difference, naming the seed.

  scripts/one-parse-differential.py [--seeds 40] [--units 6] [--first 1]
                                    [--lint build/bin/cuda-async-lint]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEADER = """#pragma once
#include <cuda_runtime.h>
#include <cstddef>
struct Frame { float *pixels; size_t n; };
"""

ALLOCATORS = {
    "pageable": "  return static_cast<float *>(std::malloc(n * sizeof(float)));",
    "pinned": "  float *p = nullptr;\n  cudaMallocHost(&p, n * sizeof(float));\n"
              "  return p;",
    "registered": "  float *p = static_cast<float *>(std::malloc(n * sizeof(float)));"
                  "\n  cudaHostRegister(p, n * sizeof(float), 0);\n  return p;",
}


def unit_source(rng, i, units):
    """One unit: its own helpers, and a driver function calling others'."""
    others = [j for j in range(units) if j != i] or [i]
    kind = rng.choice(sorted(ALLOCATORS))
    decls, body = [], []
    lines = ["#include <cstdlib>", "#include \"frame.h\"", ""]
    defs = [
        "float *make_%d(size_t n) {\n%s\n}" % (i, ALLOCATORS[kind]),
        "void get_%d(float **out, size_t n) { *out = make_%d(n); }" % (i, i),
        "void fill_%d(Frame &f) { f.pixels = make_%d(f.n); }" % (i, i),
        "void upload_%d(float *dev, const float *host, size_t n, "
        "cudaStream_t s) {\n  cudaMemcpyAsync(dev, host, n * sizeof(float), "
        "cudaMemcpyHostToDevice, s);\n}" % i,
        "void download_%d(float *host, const float *dev, size_t n, "
        "cudaStream_t s) {\n  cudaMemcpyAsync(host, dev, n * sizeof(float), "
        "cudaMemcpyDeviceToHost, s);\n}" % i,
        "void wait_%d(cudaStream_t s) { %s }" % (
            i, rng.choice(["cudaStreamSynchronize(s);",
                           "cudaDeviceSynchronize();", "(void)s;"])),
        "void pin_%d(float *p, size_t n) { %s }" % (
            i, rng.choice(["cudaHostRegister(p, n, 0);",
                           "cudaHostUnregister(p);", "(void)p; (void)n;"])),
        "void release_%d(float *p) { %s }" % (
            i, rng.choice(["std::free(p);", "cudaFreeHost(p);",
                           "(void)p;"])),
    ]
    for j in sorted(set(rng.sample(others, min(3, len(others))))):
        decls += [
            "float *make_%d(size_t n);" % j,
            "void get_%d(float **out, size_t n);" % j,
            "void fill_%d(Frame &f);" % j,
            "void upload_%d(float *dev, const float *host, size_t n, "
            "cudaStream_t s);" % j,
            "void download_%d(float *host, const float *dev, size_t n, "
            "cudaStream_t s);" % j,
            "void wait_%d(cudaStream_t s);" % j,
            "void pin_%d(float *p, size_t n);" % j,
            "void release_%d(float *p);" % j,
        ]
        body += rng.sample([
            "  { float *h = make_%d(64);\n"
            "    cudaMemcpyAsync(dev, h, 256, cudaMemcpyHostToDevice, s);\n"
            "    wait_%d(s); }" % (j, j),
            "  { float *h = nullptr; get_%d(&h, 64);\n"
            "    upload_%d(dev, h, 64, s); cudaStreamSynchronize(s); }"
            % (j, j),
            "  { Frame f{nullptr, 64}; fill_%d(f);\n"
            "    cudaMemcpyAsync(dev, f.pixels, 256, cudaMemcpyHostToDevice, "
            "s); }" % j,
            "  { float *h = make_%d(64); pin_%d(h, 256);\n"
            "    cudaMemcpyAsync(dev, h, 256, cudaMemcpyHostToDevice, s);\n"
            "    cudaStreamSynchronize(s); release_%d(h); }" % (j, j, j),
            "  { float *h = make_%d(64);\n"
            "    cudaMemcpyAsync(h, dev, 256, cudaMemcpyDeviceToHost, s);\n"
            "    wait_%d(s); float x = h[0]; (void)x; free(h); }" % (j, j),
            "  { float *h = make_%d(64); download_%d(h, dev, 64, s);\n"
            "    float x = h[1]; (void)x; cudaStreamSynchronize(s); }" % (j, j),
            "  { float *h = make_%d(64); release_%d(h); }" % (j, i),
        ], 3)
    lines += decls + [""] + defs + [""]
    lines += ["void step_%d(float *dev, cudaStream_t s) {" % i] + body + ["}"]
    return "\n".join(lines) + "\n"


def generate(root, seed, units):
    rng = random.Random(seed)
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "frame.h"), "w") as f:
        f.write(HEADER)
    entries = []
    for i in range(units):
        name = "u%02d.cpp" % i
        with open(os.path.join(root, name), "w") as f:
            # Sizes vary, so that the largest-first order varies too.
            f.write(unit_source(rng, i, units) + "//" + "x" * rng.randrange(400)
                    + "\n")
        entries.append({"directory": root, "file": name,
                        "arguments": ["c++", "-std=c++17", "-c", name]})
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f)


def lint(argv, cwd):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lint",
                        default=os.path.join(ROOT, "build", "bin",
                                             "cuda-async-lint"))
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--units", type=int, default=6)
    args = parser.parse_args()
    base = [args.lint, "--use-bundled-cuda"]
    findings = 0
    for seed in range(args.first, args.first + args.seeds):
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, "p")
            generate(root, seed, args.units)
            store = os.path.join(tmp, "store.json")
            bare = os.path.join(tmp, "bare.json")
            lint(base + ["-p", root, "--emit-summaries=" + store], tmp)
            with open(store) as f:
                doc = json.load(f)
            doc.pop("results", None)
            with open(bare, "w") as f:
                json.dump(doc, f)
            runs = {"two phases": ["-p", root, "--summaries=" + bare]}
            # A unit the program answers otherwise checks again in its
            # kept parse (every parse kept, however short), or, none
            # kept, parses again.
            keep = "--shortest-parked-parse=0"
            runs["one parse, -j 1"] = ["-p", root, "-j", "1", keep]
            runs["one parse, -j 2"] = ["-p", root, "-j", "2", keep]
            runs["one parse, none kept"] = ["-p", root, "-j", "2",
                                            "--parked-memory=0"]
            reports = {}
            for name, argv in runs.items():
                out = lint(base + argv + ["--format=json"], tmp)
                reports[name] = out.stdout
            shards = []
            for i in (1, 2):
                shard = os.path.join(tmp, "s%d.json" % i)
                lint(base + ["-p", root, "-j", "1", "--shard=%d/2" % i,
                             "--emit-summaries=" + shard], tmp)
                shards.append(shard)
            merged = os.path.join(tmp, "all.json")
            lint([args.lint, "--merge-summaries=" + merged] + shards, tmp)
            reports["matrix"] = lint(base + ["-p", root, "--summaries=" + merged,
                                             "--format=json"], tmp).stdout
            reference = reports["two phases"]
            try:
                findings += len(json.loads(reference)["findings"])
            except (ValueError, KeyError):
                print("seed %d: the two phases wrote no report" % seed)
                return 1
            for name, report in reports.items():
                if report != reference:
                    print("seed %d: %s differs from the two phases" % (
                        seed, name))
                    return 1
        print("seed %d: alike" % seed)
    print("%d seeds of %d units alike; %d findings in all" % (
        args.seeds, args.units, findings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
