"""Runs a command, passes its output through, then prints its exit status.

lit's shell has no $?; tests that pin an exact exit code pipe this helper's
stdout to FileCheck and match 'exit code: N'.
"""
import subprocess
import sys

status = subprocess.call(sys.argv[1:])
sys.stdout.flush()
print("exit code: %d" % status)
