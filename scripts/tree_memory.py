"""The memory a whole process tree holds at once, for scripts/benchmark.py
--memory: a user's machine (a CI runner's 7 GB) must hold the driver, its
workers and the parses it keeps parked all together, while getrusage's peak
is only the largest single process's.

Runs a command and samples, every `interval` seconds, every process of its
tree (its descendants: the driver is a child subreaper, so orphans stay
below it) for its proportional set size (Pss, /proc/PID/smaps_rollup:
pages shared after a fork counted once across the sharers), summing them;
the peak of those sums, and the peak count of processes, are the tree's.
Linux only."""
import os
import subprocess
import time


def _children():
    """Parent pid -> child pids of every process now."""
    tree = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields
        # after the last ')' are fixed.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        tree.setdefault(ppid, []).append(int(name))
    return tree


def _pss_kb(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_pss_kb(root):
    """The summed Pss (KiB) of root and its descendants, and their count."""
    tree = _children()
    total, count, stack = 0, 0, [root]
    while stack:
        pid = stack.pop()
        total += _pss_kb(pid)
        count += 1
        stack.extend(tree.get(pid, []))
    return total, count


def run(argv, interval=0.02, cwd=None, stderr_path=None):
    """Runs argv (its output discarded, or its standard error written to
    stderr_path); returns wall seconds, CPU seconds of the process and
    every process it reaped, its exit code, the peak summed Pss of its tree
    (KiB) and the most processes the tree held at once."""
    start = time.perf_counter()
    err = open(stderr_path, "w") if stderr_path else subprocess.DEVNULL
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err,
                            cwd=cwd)
    peak_kb, peak_count = 0, 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        kb, count = tree_pss_kb(proc.pid)
        peak_kb, peak_count = max(peak_kb, kb), max(peak_count, count)
        time.sleep(interval)
    elapsed = time.perf_counter() - start
    if stderr_path:
        err.close()
    return (elapsed, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status), peak_kb, peak_count)
