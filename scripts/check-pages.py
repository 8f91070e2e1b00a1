#!/usr/bin/env python3
"""Renders the check pages (docs/checks/*.md) as HTML, at build time.

    check-pages.py CMARK_GFM OUTPUT_DIR PAGE.md...

Each page becomes OUTPUT_DIR/<check-id>.html, rendered by cmark-gfm (GitHub's
CommonMark library, with its table extension; raw HTML is not passed
through). Links between check pages point at the rendered pages. The page's
body sits inside <main>...</main>: the HTML report embeds that part
(driver/output/HtmlOutput.cpp), and reports link the pages installed beside the tool
unless --docs-url names a published copy.
"""
import html
import os
import re
import subprocess
import sys

STYLE = """body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;
padding:0 1rem;color:#1f2328}code,pre{font:13px ui-monospace,monospace}
pre{background:#f6f8fa;padding:.6rem;overflow:auto}table{border-collapse:collapse}
td,th{border:1px solid #d0d7de;padding:.2rem .5rem;vertical-align:top}"""

SIBLING = re.compile(r'href="(cuda-async-[a-z-]+)\.md(#[^"]*)?"')


def render(cmark, source):
    body = subprocess.run([cmark, "--extension", "table", "--to", "html",
                           source], check=True, capture_output=True,
                          text=True).stdout
    return SIBLING.sub(lambda m: 'href="%s.html%s"' % (m[1], m[2] or ""),
                       body)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmark, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    for source in argv[3:]:
        check = os.path.splitext(os.path.basename(source))[0]
        page = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n'
                '<meta charset="utf-8">\n<title>%s: cuda-async-lint</title>\n'
                '<style>%s</style>\n</head>\n<body>\n<main>\n%s</main>\n'
                '</body>\n</html>\n' % (html.escape(check), STYLE,
                                         render(cmark, source)))
        target = os.path.join(out, check + ".html")
        with open(target + ".tmp", "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(target + ".tmp", target)


if __name__ == "__main__":
    main(sys.argv)
