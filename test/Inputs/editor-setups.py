#!/usr/bin/env python3
"""Runs an editor setup of docs/editors.md on a project, as written there.

  editor-setups.py DOC PLUGIN PROJECT EDITOR FILE

Takes the block after '<!-- editors-test: EDITOR -->' in DOC, replaces the
installed plugin's path by PLUGIN, and runs it in PROJECT on FILE (relative
to PROJECT):
  vscode  the task's command with VS Code's variables filled in, its output
          parsed by the task's problem matcher (a JavaScript regexp that
          Python's re reads the same);
  nvim    Neovim headless with the block as init.lua: ':make' on FILE, the
          quickfix list;
  emacs   Emacs in batch with the block loaded: M-x cuda-async-lint-file on
          FILE, then next-error over the compilation buffer.
Prints one line per finding: 'EDITOR: PATH:LINE:COL: SEVERITY: MESSAGE'.
The language server's setups (nvim-lsp, emacs-lsp) take the driver's path
for PLUGIN, in place of the installed 'cuda-async-lint'. Neovim's runs a
harness that prints the diagnostics, applies the first quick fix and prints
the result; Emacs's starts eglot on FILE with the block's server program
(eglot-ensure waits for a command loop a batch Emacs does not run) and
prints Flymake's diagnostics.
"""
import json
import os
import re
import subprocess
import sys

INSTALLED = "/usr/lib/cuda-async-lint/CudaAsyncLintTidyModule.so"


def block(doc, editor):
    text = open(doc).read()
    marker = "<!-- editors-test: %s -->" % editor
    start = text.index(marker)
    body = re.search(r"```[a-z]*\n(.*?)```", text[start:], re.S)
    return body.group(1)


def vscode(config, project, file):
    task = json.loads(config)["tasks"][0]
    path = os.path.join(project, file)

    def fill(s):
        return s.replace("${workspaceFolder}", project).replace("${file}",
                                                                 path)
    cwd = fill(task.get("options", {}).get("cwd", project))
    out = subprocess.run([fill(task["command"])] +
                         [fill(a) for a in task["args"]], cwd=cwd,
                         capture_output=True, text=True).stdout
    matcher = task["problemMatcher"]["pattern"]
    regexp = re.compile(matcher["regexp"])
    for line in out.splitlines():
        m = regexp.match(line)
        if m:
            print("vscode: %s:%s:%s: %s: %s [%s]" % tuple(
                m.group(matcher[k]) for k in
                ("file", "line", "column", "severity", "message", "code")))


def nvim(config, project, file):
    init = os.path.join(project, "init.lua")
    open(init, "w").write(config)
    out = os.path.join(project, "quickfix.txt")
    dump = ("call writefile(map(filter(getqflist(), 'v:val.valid'), "
            "'bufname(v:val.bufnr) . \":\" . v:val.lnum . \":\" . v:val.col"
            " . \": \" . v:val.type . \": \" . v:val.text'), '%s')" % out)
    subprocess.run(["nvim", "--headless", "-n", "-i", "NONE", "-u", init,
                    "-c", "silent make", "-c", dump, "-c", "qa!", file],
                   cwd=project, check=True, capture_output=True, timeout=120)
    kinds = {"e": "error", "w": "warning", "n": "note"}
    for line in open(out).read().splitlines():
        path, lnum, col, kind, text = line.split(":", 4)
        print("nvim: %s:%s:%s: %s: %s" % (path, lnum, col,
                                          kinds[kind.strip()], text.strip()))


def nvim_lsp(config, project, file):
    init = os.path.join(project, "init.lua")
    open(init, "w").write(config)
    out = os.path.join(project, "lsp.txt")
    harness = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsp",
                           "nvim-harness.lua")
    subprocess.run(["nvim", "--headless", "-n", "-i", "NONE", "-u", init,
                    "-c", "luafile " + harness, file], cwd=project,
                   check=True, capture_output=True, timeout=180,
                   env=dict(os.environ, LSP_OUT=out))
    for line in open(out).read().splitlines():
        print("nvim-lsp: " + line)


def emacs_lsp(config, project, file):
    init = os.path.join(project, "init.el")
    open(init, "w").write(config)
    walk = """
(progn
  (find-file %s)
  (eglot (list major-mode) (or (project-current) (cons 'transient %s))
         'eglot-lsp-server
         (cdr (assoc major-mode eglot-server-programs)) "cuda")
  (let ((deadline (+ (float-time) 120)))
    (while (and (< (float-time) deadline) (null (flymake-diagnostics)))
      (accept-process-output nil 0.1)))
  (dolist (d (sort (flymake-diagnostics)
                   (lambda (a b) (< (flymake-diagnostic-beg a)
                                    (flymake-diagnostic-beg b)))))
    (goto-char (flymake-diagnostic-beg d))
    (princ (format "emacs-lsp: %%d:%%d: %%s\n" (line-number-at-pos)
                   (1+ (current-column)) (flymake-diagnostic-text d)))))""" % (
        json.dumps(file), json.dumps(project))
    # -q, not -Q: Debian's site start-up puts its elpa packages (eglot) on
    # the load path.
    out = subprocess.run(["emacs", "--batch", "-q", "-l", init, "--eval",
                          walk], cwd=project, capture_output=True,
                         text=True, timeout=180)
    sys.stdout.write(out.stdout)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(out.returncode)


def emacs(config, project, file):
    init = os.path.join(project, "init.el")
    open(init, "w").write(config)
    walk = """
(progn
  (find-file %s)
  (cuda-async-lint-file)
  (while (get-buffer-process "*compilation*")
    (accept-process-output nil 0.1))
  (with-current-buffer "*compilation*" (goto-char (point-min)))
  (condition-case nil
      (while t
        (next-error)
        (princ (format "emacs: %%s:%%d:%%d\\n"
                       (file-relative-name (buffer-file-name) %s)
                       (line-number-at-pos) (1+ (current-column)))))
    (error nil)))""" % (json.dumps(file), json.dumps(project))
    out = subprocess.run(["emacs", "--batch", "-Q", "-l", init, "--eval",
                          walk], cwd=project, capture_output=True,
                         text=True, timeout=120)
    sys.stdout.write(out.stdout)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        sys.exit(out.returncode)


def main():
    doc, plugin, project, editor, file = sys.argv[1:6]
    config = block(doc, editor).replace(INSTALLED, plugin)
    if editor.endswith("-lsp"):
        config = config.replace('"cuda-async-lint"', json.dumps(plugin))
    {"vscode": vscode, "nvim": nvim, "emacs": emacs,
     "nvim-lsp": nvim_lsp, "emacs-lsp": emacs_lsp}[editor](
        config, os.path.abspath(project), file)


if __name__ == "__main__":
    main()
