#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering of src/ (doc/architecture.md), checked over its #include
lines: each folder includes only the folders below it, every include
names its folder, and no header includes its way back to itself.  Also
the sizes that keep a module readable: no file in src/ or tests/gen/
over 600 lines, no function over 60.  Speaks TAP.
Usage: layers.py [SRCDIR [GENDIR]]"""
import os
import re
import sys

# What each folder may include besides itself: the flow, top to bottom.
ALLOWED = {
    "bin": {"fuse", "views", "tree", "cache", "util"},
    "fuse": {"tree", "util"},
    "views": {"tree", "decode", "ccsf", "cache", "archive", "io", "util"},
    "tree": {"cache", "io", "util"},
    "decode": {"ccsf", "util"},
    "ccsf": {"util"},
    "cache": {"util"},
    "archive": {"io", "util"},
    "io": {"util"},
    "util": set(),
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def scan(src):
    """Every file under src by its path there, with what it includes."""
    files = {}
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith((".c", ".h")):
                with open(os.path.join(path, name), encoding="utf-8") as f:
                    text = f.read()
                files[folder + "/" + name] = [
                    i for i in INCLUDE.findall(text) if i != "config.h"]
    return files


def upward(files):
    """Includes that leave their folder for one not below it."""
    bad = []
    for f, incs in files.items():
        layer = f.split("/")[0]
        if layer not in ALLOWED:
            bad.append(f"{f}: folder {layer}/ has no place in the layering")
            continue
        for i in incs:
            if "/" not in i:
                bad.append(f"{f}: #include \"{i}\" does not name its folder")
                continue
            to = i.split("/")[0]
            if to != layer and to not in ALLOWED[layer]:
                bad.append(f"{f}: {layer}/ may not include {i}")
            elif i not in files:
                bad.append(f"{f}: #include \"{i}\" names no file in src/")
    return bad


def cycles(files):
    """Include cycles among the headers and sources, each once."""
    found, state = [], {}

    def visit(f, stack):
        state[f] = 1
        stack.append(f)
        for i in files.get(f, []):
            if i not in files:
                continue
            if state.get(i) == 1:
                found.append(" -> ".join(stack[stack.index(i):] + [i]))
            elif i not in state:
                visit(i, stack)
        stack.pop()
        state[f] = 2

    for f in files:
        if f not in state:
            visit(f, [])
    return found


MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 60


def sources(*dirs):
    """Every .c and .h below the folders, by path."""
    for d in dirs:
        for root, _, names in os.walk(d):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.join(root, n)


def long_files(paths):
    bad = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE_LINES:
            bad.append(f"{p}: {n} lines (at most {MAX_FILE_LINES})")
    return bad


def long_functions(paths):
    """A function body runs from a '{' in column 0 to the next '}' there,
    the style every file here follows."""
    bad = []
    for p in paths:
        start, name, prev = None, "", ""
        with open(p, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if line.startswith("{"):
                    start, name = i, prev.strip()
                elif line.startswith("}") and start is not None:
                    n = i - start - 1
                    if n > MAX_FUNCTION_LINES:
                        bad.append(f"{p}:{start}: {name}: {n} lines "
                                   f"(at most {MAX_FUNCTION_LINES})")
                    start = None
                if not line.startswith("{"):
                    prev = line
    return bad


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src")
    gen = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        src, "..", "tests", "gen")
    files = scan(src)
    sized = list(sources(src, gen))
    checks = [
        ("src/ has its folders", [] if files else [f"no sources in {src}"]),
        ("every include points down the flow and names its folder",
         upward(files)),
        ("no include cycle", cycles(files)),
        (f"no file over {MAX_FILE_LINES} lines", long_files(sized)),
        (f"no function over {MAX_FUNCTION_LINES} lines",
         long_functions(sized)),
    ]
    print(f"1..{len(checks)}")
    failed = 0
    for n, (what, problems) in enumerate(checks, 1):
        print(f"{'not ok' if problems else 'ok'} {n} - {what}")
        for p in problems:
            print(f"# {p}")
        failed += bool(problems)
    print(f"# {len(files)} files in {len(ALLOWED)} folders")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
