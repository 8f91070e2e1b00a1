#!/usr/bin/env python3
"""Checks that every link of a report into the tool's documentation names
a file that exists.

    check-links.py REPORT [PREFIX] [--expect-none]

Reads the report as text and finds each file:// URI into an installed
share/doc/cuda-async-lint (SARIF's helpUri and informationUri, Markdown's
and HTML's links); with PREFIX, each must also lie under it. Prints the
count and each dead link; exits 1 if one is dead or none was found (with
--expect-none: if any was found, as for a report meant to leave the machine
that wrote it).
"""
import os
import re
import sys
import urllib.parse


def main(argv):
    expect_none = "--expect-none" in argv
    argv = [a for a in argv if a != "--expect-none"]
    text = open(argv[1], encoding="utf-8").read()
    prefix = os.path.realpath(argv[2]) if len(argv) > 2 else None
    uris = set(u for u in re.findall(r'file://[^\s"\'<>)]+', text)
               if "/share/doc/cuda-async-lint/" in u)
    dead = []
    for uri in sorted(uris):
        path = urllib.parse.unquote(urllib.parse.urlsplit(uri).path)
        real = os.path.realpath(path)
        if not os.path.exists(real) or (
                prefix and not real.startswith(prefix + os.sep)):
            dead.append(uri)
    for uri in dead:
        print("dead link:", uri)
    print("%d file links, %d dead" % (len(uris), len(dead)))
    if expect_none:
        return 1 if uris else 0
    return 1 if dead or not uris else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
