"""Checks that the parses a whole-program run keeps hold no more than
--parked-memory: learns what one kept parse holds (a run that keeps every
one), then runs with a budget of two and a half of them and reads again
what the kept processes hold (the driver's --verbose line, measured anew
from each process, not from the budget's own count).

Usage: parked-budget.py DATABASE_DIR LINT [ARG...]"""
import re
import subprocess
import sys

KEPT = re.compile(r"(\d+) parses kept for the resolution, ([\d.]+) MiB "
                  r"resident \(--parked-memory: ([\d.]+) MiB\)")


def kept(lint, db, budget):
    argv = lint + ["-p", db, "-j", "1", "--verbose",
            "--shortest-parked-parse=0", "--format=json", "-o",
            db + "/report.json"]
    if budget is not None:
        argv.append("--parked-memory=%d" % budget)
    err = subprocess.run(argv, capture_output=True, text=True).stderr
    m = KEPT.search(err)
    if not m:
        sys.exit("no line of kept parses in:\n" + err)
    return int(m.group(1)), float(m.group(2)), float(m.group(3))


db, lint = sys.argv[1], sys.argv[2:]
count, held, _ = kept(lint, db, 100000)
if count < 3:
    sys.exit("only %d parses kept with room for all" % count)
one = held / count
budget = int(one * 2.5)
count, held, limit = kept(lint, db, budget)
print("kept %d of %.0f MiB each" % (count, one))
if held > limit:
    sys.exit("kept parses hold %.1f MiB, over the budget of %.1f MiB"
             % (held, limit))
print("within the budget")
