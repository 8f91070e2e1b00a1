#!/usr/bin/env python3
"""Recall on real code: one realistic bug injected per copy of a real file.

  scripts/injected-bugs.py CHECKOUT -o RESULTS.json [-j N] [--only REGEX]
                           [--lint build/bin/cuda-async-lint]

CHECKOUT is a checkout of NVIDIA/cuda-samples (commit c94ff366); nothing of
it is in this repository: the edits below are all this script holds. Each
edit names a file, text that occurs in it exactly once, and what replaces
it: one small change that creates one bug of one check. For each, the
pristine file and the edited copy (beside it, so that its includes resolve)
are linted on their own, as docs/real-code.md lints every file:
`cuda-async-lint --format=json FILE -- -I CHECKOUT/Common`. An edit is found
when the edited file has a finding of its check, at or with a note within 3 lines of
the edited lines (or of the line where the bug shows, for an edit that
deletes a wait), that the pristine file (its lines moved by the edit) does
not have. Prints the recall per check and every miss; RESULTS.json keeps each
edit's findings. The pristine files' findings are printed too: they must
all be true (docs/real-code/cuda-samples.verdicts.tsv).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WINDOW = 3


def edit(ident, check, path, find, replace, why, at=None):
    """\p at: where the bug shows, when not at the edit itself (the host's
    read after a deleted wait): text of that line in the edited file."""
    return {"id": ident, "check": "cuda-async-" + check, "path": path,
            "find": find, "replace": replace, "why": why, "at": at}


INTRO = "Samples/0_Introduction/"
EDITS = [
    # cuda-async-unsynchronized-access: the host uses a D2H destination, or
    # refills an H2D source, before the wait for its copy.
    edit("simpleStreams-no-wait", "unsynchronized-access",
         INTRO + "simpleStreams/simpleStreams.cu",
         "    checkCudaErrors(cudaEventRecord(stop_event, 0));\n"
         "    checkCudaErrors(cudaEventSynchronize(stop_event));\n"
         "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
         "    printf(\"%d streams:\\t%.2f\\n\", nstreams, elapsed_time / nreps);\n",
         "    checkCudaErrors(cudaEventRecord(stop_event, 0));\n"
         "    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));\n"
         "    printf(\"%d streams:\\t%.2f\\n\", nstreams, elapsed_time / nreps);\n",
         "the wait for the streams' D2H copies into hAligned_a deleted before "
         "correct_data reads it", at="bool bResults = correct_data("),
    edit("asyncAPI-no-poll", "unsynchronized-access",
         INTRO + "asyncAPI/asyncAPI.cu",
         "    while (cudaEventQuery(stop) == cudaErrorNotReady) {\n"
         "        counter++;\n"
         "    }\n",
         "",
         "the polling loop before the host checks the D2H destination 'a' "
         "deleted", at="bool bFinalResults = correct_output("),
    edit("simpleMultiCopy-no-final-sync", "unsynchronized-access",
         INTRO + "simpleMultiCopy/simpleMultiCopy.cu",
         "    cudaDeviceSynchronize();\n",
         "",
         "the device synchronization after the issuing loop deleted before "
         "the outputs are checked", at="bool bResults = test();"),
    # cuda-async-sync-in-loop: a wait for the iteration's own work inside a
    # multi-stream issuing loop.
    edit("simpleStreams-sync-in-loop", "sync-in-loop",
         INTRO + "simpleStreams/simpleStreams.cu",
         "                                            cudaMemcpyDeviceToHost,\n"
         "                                            streams[i]));\n"
         "        }\n",
         "                                            cudaMemcpyDeviceToHost,\n"
         "                                            streams[i]));\n"
         "            checkCudaErrors(cudaDeviceSynchronize());\n"
         "        }\n",
         "cudaDeviceSynchronize after each stream's D2H copy in the issuing "
         "loop"),
    edit("simpleMultiCopy-stream-sync", "sync-in-loop",
         INTRO + "simpleMultiCopy/simpleMultiCopy.cu",
         "        checkCudaErrors(cudaEventRecord(cycleDone[current_stream], stream[current_stream]));\n",
         "        checkCudaErrors(cudaEventRecord(cycleDone[current_stream], stream[current_stream]));\n"
         "        cudaStreamSynchronize(stream[current_stream]);\n",
         "a stream sync of the iteration's own work in the double-buffered "
         "loop"),
    # cuda-async-default-stream: legacy-stream work between created-stream
    # work.
    edit("simpleStreams-legacy-kernel", "default-stream",
         INTRO + "simpleStreams/simpleStreams.cu",
         "            init_array<<<blocks, threads, 0, streams[i]>>>(d_a + i * n / nstreams, d_c, niterations);\n",
         "            init_array<<<blocks, threads>>>(d_a + i * n / nstreams, d_c, niterations);\n",
         "the kernels of the multi-stream loop launched on the legacy stream"),
    # cuda-async-pinned-alloc-in-loop.
    edit("simpleMultiCopy-pin-in-loop", "pinned-alloc-in-loop",
         INTRO + "simpleMultiCopy/simpleMultiCopy.cu",
         "        cudaEventSynchronize(cycleDone[next_stream]);\n",
         "        cudaEventSynchronize(cycleDone[next_stream]);\n"
         "        checkCudaErrors(cudaFreeHost(h_data_in[next_stream]));\n"
         "        checkCudaErrors(cudaHostAlloc(&h_data_in[next_stream], memsize, cudaHostAllocDefault));\n",
         "the input staging buffer released and pinned again every cycle"),
    # cuda-async-pageable-copy.
    edit("asyncAPI-malloc", "pageable-copy",
         INTRO + "asyncAPI/asyncAPI.cu",
         "    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));\n",
         "    a = (int *)malloc(nbytes);\n",
         "the host buffer from malloc instead of cudaMallocHost"),
    # cuda-async-dealloc-mismatch.
    edit("asyncAPI-free", "dealloc-mismatch",
         INTRO + "asyncAPI/asyncAPI.cu",
         "    checkCudaErrors(cudaFreeHost(a));\n",
         "    free(a);\n",
         "memory from cudaMallocHost released with free"),
]


def lint(lint_bin, checkout, path, timeout):
    """The findings of one file, as (check, line, note lines), or None if
    the linter failed on it."""
    proc = subprocess.run(
        [lint_bin, "--format=json", "-j", "1", path, "--",
         "-I", os.path.join(checkout, "Common")],
        capture_output=True, text=True, timeout=timeout)
    if proc.returncode not in (0, 1):
        return None
    report = json.loads(proc.stdout)
    return [(f["check"], f["location"]["line"],
             [n["location"]["line"] for n in f.get("notes", [])
              if "location" in n])
            for f in report.get("findings", [])]


def run_edit(opts, e):
    path = os.path.join(opts.checkout, e["path"])
    with open(path) as f:
        text = f.read()
    if text.count(e["find"]) != 1:
        return dict(e, status="stale",
                    detail="the text to edit occurs %d times" %
                    text.count(e["find"]))
    at = text.index(e["find"])
    first = text.count("\n", 0, at) + 1
    delta = e["replace"].count("\n") - e["find"].count("\n")
    last = first + max(e["replace"].count("\n"), 1) - 1
    edited = os.path.join(os.path.dirname(path),
                          ".injected-" + e["id"] + os.path.splitext(path)[1])
    with open(edited, "w") as f:
        f.write(text.replace(e["find"], e["replace"]))
    try:
        before = lint(opts.lint, opts.checkout, path, opts.timeout)
        after = lint(opts.lint, opts.checkout, edited, opts.timeout)
    finally:
        os.remove(edited)
    if before is None or after is None:
        return dict(e, status="error", detail="the linter failed")
    # Where the bug is: the edited lines, and the line it shows at.
    places = [(first, last)]
    if e.get("at"):
        edited_text = text.replace(e["find"], e["replace"])
        if edited_text.count(e["at"]) != 1:
            return dict(e, status="stale", detail="'at' occurs %d times" %
                        edited_text.count(e["at"]))
        line = edited_text.count("\n", 0, edited_text.index(e["at"])) + 1
        places.append((line, line))
    moved = collections.Counter(
        (c, l + delta if l > first else l) for c, l, _ in before)
    new = []
    for c, l, notes in after:
        if moved[(c, l)] > 0:
            moved[(c, l)] -= 1
        else:
            new.append((c, l, notes))
    near = lambda l: any(a - WINDOW <= l <= b + WINDOW for a, b in places)
    hits = [f for f in new if f[0] == e["check"] and
            any(near(l) for l in [f[1]] + f[2])]
    return dict(e, status="found" if hits else "missed", line=first,
                new=new, pristine=before)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--only", help="regular expression on the edit ids")
    parser.add_argument("--lint", default=os.path.join(ROOT, "build", "bin",
                                                       "cuda-async-lint"))
    parser.add_argument("--timeout", type=int, default=300)
    opts = parser.parse_args()
    edits = [e for e in EDITS
             if not opts.only or re.search(opts.only, e["id"])]
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        results = list(pool.map(lambda e: run_edit(opts, e), edits))
    with open(opts.output, "w") as f:
        json.dump(results, f, indent=1)
    by_check = collections.defaultdict(list)
    for r in results:
        by_check[r["check"]].append(r)
    print("| check | edits | found | recall |")
    print("| --- | --- | --- | --- |")
    for check in sorted(by_check):
        rs = by_check[check]
        found = sum(r["status"] == "found" for r in rs)
        print("| %s | %d | %d | %.2f |" % (check, len(rs), found,
                                           found / len(rs)))
    print()
    for r in results:
        if r["status"] != "found":
            print("- %s `%s` (%s:%s): %s%s" % (
                r["status"], r["id"], r["path"], r.get("line", "?"), r["why"],
                " -- " + r["detail"] if "detail" in r else ""))
    pristine = sorted({(r["path"], f[0], f[1]) for r in results
                       for f in r.get("pristine", [])})
    print("\npristine findings: %d" % len(pristine))
    for p, c, l in pristine:
        print("  %s:%d %s" % (p, l, c))
    return 0


if __name__ == "__main__":
    sys.exit(main())
