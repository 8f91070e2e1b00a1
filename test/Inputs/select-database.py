"""Writes OUT_DIR/compile_commands.json with the entries of BUILD_DIR's
database whose files lie under PREFIX: a program of its own, for tests that
analyse part of a larger build.

  select-database.py BUILD_DIR PREFIX OUT_DIR
"""
import json
import os
import sys

build, prefix, out = sys.argv[1:4]
with open(os.path.join(build, "compile_commands.json")) as f:
    entries = json.load(f)
prefix = os.path.realpath(prefix)
kept = [e for e in entries
        if os.path.realpath(os.path.join(e["directory"], e["file"]))
        .startswith(prefix + os.sep)]
if not kept:
    sys.exit("no entry of %s lies under %s" % (build, prefix))
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(kept, f, indent=2)
