"""Checks the CI pieces the repository ships against what they call:
action.yml, .pre-commit-hooks.yaml, docs/ci/*.yml.

  check-ci-files.py SOURCE_ROOT LINT_BINARY

Each file must parse as YAML; the action must be a composite whose steps
call scripts that exist, pass every input it declares, and set every
variable scripts/ci-gate.sh reads; every cuda-async-lint option the files
use must be one the binary accepts (its --help-hidden lists it).
"""
import os
import re
import subprocess
import sys

import yaml

root, lint = sys.argv[1], sys.argv[2]
help_text = subprocess.run([lint, "--help-hidden"], capture_output=True, text=True,
                           check=True).stdout
known = set(re.findall(r"^\s+(-{1,2}[a-z][a-z-]*)", help_text, re.M))


def fail(message):
    sys.exit("CI files: " + message)


def check_options(text, where):
    """Every option in a cuda-async-lint command line of text is known."""
    for line in text.splitlines():
        if "cuda-async-lint " not in line or line.lstrip().startswith("#"):
            continue
        command = line.split("cuda-async-lint ", 1)[1]
        for option in re.findall(r"(?:^|\s)(-{1,2}[a-z][a-z-]*)", command):
            if option not in known:
                fail("%s uses %s, which cuda-async-lint does not accept" %
                     (where, option))


with open(os.path.join(root, "action.yml")) as f:
    action = yaml.safe_load(f)
if action["runs"]["using"] != "composite":
    fail("action.yml is not a composite action")
inputs = set(action["inputs"])
used = set()
with open(os.path.join(root, "scripts", "ci-gate.sh")) as f:
    gate_vars = set(re.findall(r"\$\{(CAL_[A-Z_]+)", f.read()))
for step in action["runs"]["steps"]:
    text = yaml.safe_dump(step)
    used |= set(re.findall(r"inputs\.([a-z-]+)", text))
    for script in re.findall(r"GITHUB_ACTION_PATH/([\w/.-]+)", text):
        if not os.access(os.path.join(root, script), os.X_OK):
            fail("action.yml runs %s, which is not an executable script" %
                 script)
    if "ci-gate.sh" in text:
        missing = gate_vars - set(step.get("env", {}))
        if missing:
            fail("action.yml does not set %s for ci-gate.sh" %
                 ", ".join(sorted(missing)))
if inputs - used:
    fail("action.yml declares unused inputs %s" % sorted(inputs - used))
if used - inputs:
    fail("action.yml uses undeclared inputs %s" % sorted(used - inputs))

with open(os.path.join(root, ".pre-commit-hooks.yaml")) as f:
    hooks = yaml.safe_load(f)
for hook in hooks:
    for key in ("id", "name", "entry", "language"):
        if key not in hook:
            fail(".pre-commit-hooks.yaml: a hook without %s" % key)
    check_options("cuda-async-lint " + " ".join(hook.get("args", [])),
                  ".pre-commit-hooks.yaml")

for name in sorted(n for n in os.listdir(os.path.join(root, "docs", "ci"))
                   if n.endswith((".yml", ".yaml"))):
    path = os.path.join(root, "docs", "ci", name)
    with open(path) as f:
        text = f.read()
    yaml.safe_load(text)
    check_options(text, "docs/ci/" + name)
print("CI files conform")
