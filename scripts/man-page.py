#!/usr/bin/env python3
"""Writes cuda-async-lint(1) from the tool's own --help, so the man page
lists exactly the options the installed binary has.

  scripts/man-page.py BINARY OUTPUT.1
"""
import re
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes, leading dots and dashes."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return ("\\&" + text) if text.startswith((".", "'")) else text


def parse_options(help_text):
    """[(flag, description, [(value, meaning)])] of the tool's category."""
    options = []
    in_tool = False
    for line in help_text.splitlines():
        if line.strip() == "cuda-async-lint options:":
            in_tool = True
            continue
        if not in_tool or not line.strip():
            continue
        value = re.match(r"^\s+=(\S+)\s+-\s+(.*)$", line)
        if value and options:
            options[-1][2].append((value.group(1), value.group(2).strip()))
            continue
        option = re.match(r"^\s{2}(-\S.*?)\s+- (.*)$", line)
        if option:
            options.append((option.group(1), option.group(2).strip(), []))
    return options


def main():
    binary, output = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([binary, "--help"], capture_output=True,
                               text=True, check=True).stdout
    version = subprocess.run([binary, "--version"], capture_output=True,
                             text=True, check=True).stdout.strip()
    options = parse_options(help_text)
    if not options:
        sys.exit("man-page.py: no options found in '%s --help'" % binary)
    out = [
        '.TH CUDA-ASYNC-LINT 1 "" "%s" "User Commands"' % roff(version),
        ".SH NAME",
        "cuda-async-lint \\- find CUDA host code that misuses asynchronous "
        "transfers",
        ".SH SYNOPSIS",
        ".B cuda-async-lint",
        "[\\fIoptions\\fR] \\fIFILES\\fR... [\\-\\- \\fICOMPILER_ARGS\\fR]",
        ".br",
        ".B cuda-async-lint",
        "\\-p \\fIBUILD_DIR\\fR [\\fIoptions\\fR] [\\fIFILES\\fR...]",
        ".SH DESCRIPTION",
        "Finds host code that copies from pageable memory asynchronously, "
        "releases pinned memory with the wrong function, touches a buffer "
        "before the stream that copies it is synchronized, or serializes its "
        "own pipeline. The same checks run in clang\\-tidy through the "
        "plugin CudaAsyncLintTidyModule.so.",
        ".SH OPTIONS",
    ]
    for flag, description, values in options:
        out += [".TP", "\\fB%s\\fR" % roff(flag), roff(description)]
        for value, meaning in values:
            out += [".RS", ".TP", "\\fB%s\\fR" % roff(value), roff(meaning),
                    ".RE"]
    out += [
        ".SH EXIT STATUS",
        ".TP", "0", "Every file analysed, no findings.",
        ".TP", "1", "Every file analysed, at least one finding.",
        ".TP", "2", "Usage or input error; nothing was analysed (or a write "
        "failed).",
        ".TP", "3", "At least one file could not be analysed (it does not "
        "parse, its analysis crashed or ran past \\-\\-timeout); the others "
        "were reported.",
        ".SH FILES",
        ".TP", "\\fI<prefix>/share/cuda\\-async\\-lint/include\\fR",
        "The bundled CUDA declarations, used when no CUDA toolkit is found.",
        ".TP", "\\fI<prefix>/lib/cuda\\-async\\-lint/CudaAsyncLintTidyModule.so"
        "\\fR", "The clang\\-tidy plugin: clang\\-tidy\\-22 "
        "\\-\\-load=<it> \\-\\-checks='\\-*,cuda\\-async\\-*'.",
        ".SH SEE ALSO",
        "clang\\-tidy(1), nvcc(1); the documentation in "
        "\\fI<prefix>/share/doc/cuda\\-async\\-lint\\fR.",
    ]
    with open(output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
