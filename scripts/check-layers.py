#!/usr/bin/env python3
"""Checks the driver's house: each folder of driver/ says its purpose in a
README.md, and no file includes a header of a folder at its own layer or
above (docs/design.md, "The driver's folders").

  scripts/check-layers.py [--driver driver]

Layers, from the bottom: support; compile, config, report; run, output;
lsp; cli (the command line's invocation and modes); main.cpp.

The core (checks/, --checks) is checked too: it includes nothing of the
driver's, of nlohmann_json or of clang-tidy (both front-ends run the same
objects: docs/design.md, "One core, two front-ends"), and its API catalog
(api/) includes nothing of the analyses above it (analysis/, summaries/). A file may include
headers of its own folder and of the layers below.

The analyses (checks/analysis/) are folders by idea, each with a
README.md, in one order from the bottom (docs/design.md, "The analysis's
folders"): code; dataflow; provenance; sync; pending; serialization. A
folder's files include headers of their own folder and of folders before
it, never after, and never a check (checks/*Check.h, above them all); no
file of checks/analysis/ lies outside a folder, and none is over 450
lines. Exit status 1, with each offending include or
file, if any breaks a rule.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERS = {"support": 0, "compile": 1, "config": 1, "report": 1, "run": 2,
          "output": 2, "lsp": 3, "cli": 4, "": 5}
# Generated into the build tree at the driver's root: build configuration,
# which includes nothing.
GENERATED = {"Config.h": "support"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(driver, path):
    rel = os.path.relpath(path, driver)
    head = rel.split(os.sep)[0]
    return head if os.sep in rel else ""


def verdict(problems, holds):
    if not problems:
        return holds
    return "%d problem%s" % (len(problems), "" if len(problems) == 1 else "s")


# The folders of checks/analysis/, from the bottom.
ANALYSIS_ORDER = ["code", "dataflow", "provenance", "sync", "pending",
                  "serialization"]
LONGEST_FILE = 450

# What no file of the core includes, and what its catalog does not.
CORE_FORBIDDEN = re.compile(r"nlohmann|clang-tidy/|ClangTidy|(^|/)driver/")
CATALOG_FORBIDDEN = re.compile(r"(^|/)(analysis|summaries)/")


def sources(root):
    """Each C++ source under root: its path and its text."""
    for base, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith((".h", ".cpp", ".def")):
                path = os.path.join(base, name)
                yield path, open(path, encoding="utf-8").read()


def core_problems(checks):
    problems = []
    files = 0
    for path, text in sources(checks):
        files += 1
        rel = os.path.relpath(path, checks)
        for included in re.findall(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]',
                                   text, re.M):
            if CORE_FORBIDDEN.search(included):
                problems.append("checks/%s includes %s: the core is "
                                "the front-ends' common part" % (
                                    rel, included))
            elif (rel.startswith("api" + os.sep)
                  and CATALOG_FORBIDDEN.search(included)):
                problems.append("checks/%s includes %s: the catalog is "
                                "below the analyses" % (rel, included))
    for p in problems:
        print(p)
    print("%d files of checks/ checked: %s" % (
        files, verdict(problems, "the core holds")))
    return problems


def analysis_folder(analysis, path):
    """The folder of checks/analysis/ that holds path; None outside it,
    "" for a file at its top."""
    rel = os.path.relpath(path, analysis)
    if rel.startswith(".."):
        return None
    return rel.split(os.sep)[0] if os.sep in rel else ""


def analysis_problems(checks):
    """The analysis's folders include each other in ANALYSIS_ORDER only."""
    analysis = os.path.join(checks, "analysis")
    rank = {f: i for i, f in enumerate(ANALYSIS_ORDER)}
    problems = []
    for folder in ANALYSIS_ORDER:
        readme = os.path.join(analysis, folder, "README.md")
        if not os.path.isfile(readme) or not open(readme).read().strip():
            problems.append("analysis/%s/: no README.md saying what it "
                            "answers and what it may use" % folder)
    for d in sorted(os.listdir(analysis)):
        if os.path.isdir(os.path.join(analysis, d)) and d not in rank:
            problems.append("analysis/%s/: a folder of no place in the "
                            "order (scripts/check-layers.py)" % d)
    files = 0
    for path, text in sources(analysis):
        files += 1
        base = os.path.dirname(path)
        rel = os.path.relpath(path, checks)
        own = analysis_folder(analysis, path)
        if own not in rank:
            problems.append("checks/%s: outside the analysis's folders"
                            % rel)
            continue
        lines = text.count("\n")
        if lines > LONGEST_FILE:
            problems.append("checks/%s: %d lines, over %d" % (
                rel, lines, LONGEST_FILE))
        for included in INCLUDE.findall(text):
            local = os.path.normpath(os.path.join(base, included))
            rooted = os.path.normpath(os.path.join(checks, included))
            target = os.path.abspath(
                local if os.path.isfile(local) else rooted)
            if not os.path.isfile(target):
                continue
            if os.path.dirname(target) == os.path.abspath(checks):
                problems.append("checks/%s includes %s: the checks are "
                                "above the analyses" % (rel, included))
                continue
            other = analysis_folder(analysis, target)
            if other is None or other == own:
                continue
            if other not in rank or rank[other] > rank[own]:
                problems.append("checks/%s includes %s: analysis/%s/ "
                                "is not before analysis/%s/" % (
                                    rel, included, other or ".", own))
    for p in problems:
        print(p)
    print("%d files of checks/analysis/ checked: %s" % (
        files, verdict(problems, "its folders hold")))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", default=os.path.join(ROOT, "driver"))
    parser.add_argument("--checks", default=os.path.join(ROOT, "checks"))
    args = parser.parse_args()
    driver = os.path.abspath(args.driver)
    core = core_problems(os.path.abspath(args.checks))
    core += analysis_problems(os.path.abspath(args.checks))
    problems = []
    for folder in sorted(LAYERS):
        if not folder:
            continue
        readme = os.path.join(driver, folder, "README.md")
        if not os.path.isfile(readme) or not open(readme).read().strip():
            problems.append("%s/: no README.md saying its purpose" % folder)
    unknown = [d for d in os.listdir(driver)
               if os.path.isdir(os.path.join(driver, d))
               and d not in LAYERS and d != "include"]
    for d in sorted(unknown):
        problems.append("%s/: a folder of no layer (scripts/check-layers.py)"
                        % d)
    files = 0
    for base, dirs, names in os.walk(driver):
        dirs[:] = [d for d in dirs if d != "include"]
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(base, name)
            own = folder_of(driver, path)
            if own not in LAYERS:
                continue
            files += 1
            text = open(path, encoding="utf-8").read()
            for included in INCLUDE.findall(text):
                local = os.path.join(base, included)
                rooted = os.path.join(driver, included)
                if os.path.isfile(local):
                    target = folder_of(driver, local)
                elif os.path.isfile(rooted):
                    target = folder_of(driver, rooted)
                elif included in GENERATED:
                    target = GENERATED[included]
                else:
                    continue  # Not the driver's: the core, clang, the tracer.
                if target == own:
                    continue
                if LAYERS[target] >= LAYERS[own]:
                    problems.append("%s includes %s: %s/ is not below %s/" % (
                        os.path.relpath(path, driver), included,
                        target or ".", own or "."))
    for p in problems:
        print(p)
    print("%d files of driver/ checked: %s" % (files,
                                                verdict(problems, "layers hold")))
    return 1 if problems or core else 0


if __name__ == "__main__":
    sys.exit(main())
