#!/usr/bin/env python3
"""Writes the raw trace a real run of an nvcc-built program would leave for
its kernel launches, from the program's own machine code.

    launch-stacks.py OBJDUMP PROGRAM RAW.json

For each call into the CUDA runtime's launch (__cudaLaunchKernel, which
nvcc's launch stubs reach), every stack that call could have: the return
address of the call, then of each call up the chain (the stub, the kernel's
host function, its caller...) to main. Each stack becomes one kernel-launch
site of a
raw trace (format cuda-async-trace-raw, version 1) whose only module is the
program, loaded at its own addresses. cuda-async-trace --finish then
symbolizes it as it would a traced run.
"""
import json
import re
import subprocess
import sys

FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
CALL = re.compile(r"^\s*[0-9a-f]+:\s+callq?\s+(?:0x)?[0-9a-f]+ <([^+>]+)>")


def main(argv):
    objdump, program, out = argv[1:4]
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", program],
                          check=True, capture_output=True, text=True).stdout
    functions = {}   # name -> list of (return address, callee)
    current = None
    previous = None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(2)
            functions[current] = []
            previous = None
            continue
        m = re.match(r"^\s*([0-9a-f]+):", line)
        if not m or current is None:
            continue
        address = int(m.group(1), 16)
        # The return address of the previous call is this instruction's.
        if previous is not None:
            functions[current].append((address, previous))
            previous = None
        c = CALL.match(line)
        if c:
            previous = c.group(1)
    callers = {}  # callee -> [(return address, caller)]
    for caller, calls in functions.items():
        for address, callee in calls:
            callers.setdefault(callee, []).append((address, caller))

    def chains(function, seen):
        if function == "main":
            return [[]]
        out = []
        for address, caller in callers.get(function, []):
            if caller not in seen:
                out += [[address] + rest
                        for rest in chains(caller, seen | {caller})]
        return out

    stacks = []
    for launch in sorted(f for f in callers if "cudaLaunchKernel" in f):
        for address, function in callers[launch]:
            stacks += [[address] + rest
                       for rest in chains(function, {function})]
    raw = {
        "format": "cuda-async-trace-raw", "version": 1,
        "process": {"pid": 1, "tracer": "launch-stacks.py", "signal": 0},
        "modules": [{"path": program, "base": 0, "buildId": "",
                     "ranges": [[0, 1 << 40]]}],
        "stacks": stacks,
        "sites": [{"api": "cudaLaunchKernel", "function": "cudaLaunchKernel",
                   "kind": "kernel-launch", "async": True, "stack": i,
                   "calls": 1, "firstError": 0, "memoryKinds": []}
                  for i in range(len(stacks))],
    }
    with open(out, "w") as f:
        json.dump(raw, f)
    print("%d launch stacks" % len(stacks))


if __name__ == "__main__":
    main(sys.argv)
