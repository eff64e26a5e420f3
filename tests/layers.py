#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering of src/ (doc/architecture.md), checked over its #include
lines: each folder includes only the folders below it, a layer's
sub-folders include each other only as SUBFOLDERS allows, every include
names its folder, and no header includes its way back to itself.  Calls
between the files of one folder go one way: no two files call each
other.  Also the sizes that keep a module readable: no file in src/ or
tests/gen/ over 600 lines, no function over 60.  Speaks TAP.
Usage: layers.py [SRCDIR [GENDIR]]"""
import os
import re
import sys

# What each layer may include besides itself: the flow, top to bottom.
ALLOWED = {
    "bin": {"fuse", "edit", "views", "pack", "tree", "cache", "util"},
    "fuse": {"edit", "tree", "util"},
    "edit": {"views", "tree", "util"},
    "pack": {"ccsf", "archive", "io", "util"},
    "views": {"tree", "decode", "dbmod", "ccsf", "cache", "archive", "io",
              "util"},
    "tree": {"cache", "io", "util"},
    "decode": {"ccsf", "util"},
    "dbmod": {"util"},
    "ccsf": {"util"},
    "cache": {"util"},
    "archive": {"io", "util"},
    "io": {"util"},
    "util": set(),
}

# A layer split into sub-folders by subject: what each sub-folder may
# include of its layer's others.  A layer listed here holds no file of
# its own, only these sub-folders.
SUBFOLDERS = {
    "decode": {
        "text": set(),
        "gametext": set(),
        "texture": set(),
        "model": set(),
        "motion": {"model"},
        "scene": {"texture", "model", "motion"},
        "cutscene": {"motion"},
    },
}

# Pairs of files of one folder that may call each other, each a sorted
# file pair; none does.  A pair on the list that no longer calls each
# other is named, to come off it.
CALL_CIRCLES_ALLOWED = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(f):
    """The folder of a path below src/: 'decode/scene' for
    'decode/scene/scene_mesh.c'."""
    return f.rsplit("/", 1)[0]


def scan(src):
    """Every .c and .h below src by its path there, with what it
    includes."""
    files = {}
    for root, dirs, names in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(root, src)
        if rel == ".":
            continue
        for name in sorted(names):
            if name.endswith((".c", ".h")):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    text = f.read()
                files[rel.replace(os.sep, "/") + "/" + name] = [
                    i for i in INCLUDE.findall(text) if i != "config.h"]
    return files


def placed(folder):
    """Why a folder has no place in the layering, or None."""
    parts = folder.split("/")
    layer = parts[0]
    if layer not in ALLOWED:
        return f"folder {layer}/ has no place in the layering"
    subs = SUBFOLDERS.get(layer)
    if subs is None:
        return f"{layer}/ has no sub-folders" if len(parts) > 1 else None
    if len(parts) != 2 or parts[1] not in subs:
        return (f"{folder}/ is none of {layer}/'s sub-folders "
                f"({', '.join(sorted(subs))})")
    return None


def may_include(frm, to):
    """Whether a file in folder frm may include one in folder to."""
    a, b = frm.split("/"), to.split("/")
    if a[0] != b[0]:
        return b[0] in ALLOWED[a[0]]
    if len(a) == 1 or frm == to:
        return True
    return len(b) == 2 and b[1] in SUBFOLDERS[a[0]][a[1]]


def upward(files):
    """Includes that leave their folder for one not below it."""
    bad = []
    for f, incs in files.items():
        frm = folder_of(f)
        why = placed(frm)
        if why:
            bad.append(f"{f}: {why}")
            continue
        for i in incs:
            if "/" not in i:
                bad.append(f"{f}: #include \"{i}\" does not name its folder")
                continue
            to = folder_of(i)
            if i not in files:
                bad.append(f"{f}: #include \"{i}\" names no file in src/")
            elif not may_include(frm, to):
                bad.append(f"{f}: {frm}/ may not include {i}")
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


# Comments, strings and character constants, blanked before calls are
# looked for (newlines kept, so lines stay where they were).
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                   r"|'(?:\\.|[^'\\\n])*'", re.S)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)")


def blank(text):
    return NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def definitions(text):
    """The functions a file defines, each as (name, is_static), by this
    tree's style: a body opens with '{' in column 0, and its header's
    last line starting in column 0 holds 'name(', the return type before
    it on that line or alone on the line above."""
    lines = text.split("\n")
    found = []
    for n, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        k = n - 1
        while k >= 0 and (not lines[k] or lines[k][0] in " \t"):
            k -= 1
        line = ATTRIBUTE.sub("", lines[k]) if k >= 0 else ""
        if "(" not in line or "=" in line.split("(")[0]:
            continue
        head = line.split("(")[0]
        m = re.search(r"([A-Za-z_]\w*)\s*$", head)
        if not m:
            continue
        if head.strip() == m.group(1) and k > 0:
            head = lines[k - 1] + " " + head
        found.append((m.group(1), re.search(r"\bstatic\b", head) is not None))
    return found


def call_circles(src, allowed_seen):
    """Pairs of .c files of one folder each calling a function the other
    defines (static functions aside), as 'a.c <-> b.c: ...'; the allowed
    pairs met go to allowed_seen."""
    by_folder = {}
    for root, _, names in os.walk(src):
        for n in sorted(names):
            if n.endswith(".c"):
                path = os.path.join(root, n)
                with open(path, encoding="utf-8") as f:
                    text = blank(f.read())
                rel = os.path.relpath(path, src).replace(os.sep, "/")
                by_folder.setdefault(folder_of(rel), {})[rel] = text
    found = []
    for texts in by_folder.values():
        defs = {f: definitions(t) for f, t in texts.items()}
        owner = {}
        for f, ds in defs.items():
            for name, static in ds:
                if not static:
                    owner[name] = f
        calls = {}
        for f, t in texts.items():
            own = {name for name, _ in defs[f]}
            for name in set(CALL.findall(t)) - own:
                if name in owner:
                    calls.setdefault((f, owner[name]), set()).add(name)
        for (a, b), names in sorted(calls.items()):
            if a > b or (b, a) not in calls:
                continue
            if (a, b) in CALL_CIRCLES_ALLOWED:
                allowed_seen.add((a, b))
            else:
                back = calls[(b, a)]
                found.append(f"{a} <-> {b}: {a} calls "
                             f"{', '.join(sorted(names))}; {b} calls "
                             f"{', '.join(sorted(back))}")
        found += longer_circles(calls)
    return found


def longer_circles(calls):
    """Circles through three files or more, each once: what is left of
    the calls once every pair calling each other is taken out."""
    out = {}
    for a, b in calls:
        if (b, a) not in calls:
            out.setdefault(a, set()).add(b)
    found, state = [], {}

    def visit(f, stack):
        state[f] = 1
        stack.append(f)
        for g in sorted(out.get(f, ())):
            if state.get(g) == 1:
                found.append("circle of calls: " + " -> ".join(
                    stack[stack.index(g):] + [g]))
            elif g not in state:
                visit(g, stack)
        stack.pop()
        state[f] = 2

    for f in sorted(out):
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
    allowed_seen = set()
    checks = [
        ("src/ has its folders", [] if files else [f"no sources in {src}"]),
        ("every include points down the flow and names its folder",
         upward(files)),
        ("no include cycle", cycles(files)),
        ("no two files of a folder call each other",
         call_circles(src, allowed_seen)),
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
    for a, b in sorted(CALL_CIRCLES_ALLOWED - allowed_seen):
        print(f"# {a} and {b} no longer call each other: take them off "
              "CALL_CIRCLES_ALLOWED")
    folders = {folder_of(f) for f in files}
    print(f"# {len(files)} files in {len(folders)} folders")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
