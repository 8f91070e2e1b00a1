#!/usr/bin/env python3
"""Checks the driver's house: each folder of driver/ says its purpose in a
README.md, and no file includes a header of a folder at its own layer or
above (docs/design.md, "The driver's folders").

  scripts/check-layers.py [--driver driver]

Layers, from the bottom: support; compile, config, report; run, output;
lsp; cli (the command line's invocation and modes); main.cpp. A file may include
headers of its own folder and of the layers below. Exit status 1, with each
offending include, if any breaks the rule.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", default=os.path.join(ROOT, "driver"))
    args = parser.parse_args()
    driver = os.path.abspath(args.driver)
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
    if problems:
        verdict = "%d problem%s" % (len(problems),
                                    "" if len(problems) == 1 else "s")
    else:
        verdict = "layers hold"
    print("%d files of driver/ checked: %s" % (files, verdict))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
