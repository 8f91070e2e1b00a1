#!/usr/bin/env python3
"""Writes a compile_commands.json for a checkout of public CUDA code that
has none, so that scripts/benchmark.py --project and the linter's -p can
run over it: one nvcc command per file matching the globs, with the given
flags, run in the checkout's root.

  scripts/corpus-database.py /tmp/ggml --glob 'src/ggml-cuda/*.cu' \\
      --flags '-std=c++17 -Isrc -Iinclude -Isrc/ggml-cuda'
"""

import argparse
import glob
import json
import os
import shlex
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--glob", action="append", required=True,
                        help="files, relative to root (repeatable)")
    parser.add_argument("--flags", default="",
                        help="compiler flags, relative to root")
    parser.add_argument("-o", "--output",
                        help="default: ROOT/compile_commands.json")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    files = sorted({f for g in args.glob
                    for f in glob.glob(os.path.join(root, g))})
    if not files:
        print("no file matches %s under %s" % (args.glob, root),
              file=sys.stderr)
        return 2
    flags = shlex.split(args.flags)
    entries = [{"directory": root,
                "arguments": ["nvcc"] + flags +
                             ["-c", f, "-o", os.path.splitext(f)[0] + ".o"],
                "file": f} for f in files]
    out = args.output or os.path.join(root, "compile_commands.json")
    with open(out, "w") as f:
        json.dump(entries, f, indent=1)
    print("%d files: %s" % (len(files), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
