#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pocheck.py - the mounted %text/ templates read with polib, as a
translation tool would, each entry compared with the generator's
message (ccsgen text: the bytes in hex).  The expected UTF-8 is made
here from the bytes with Python's own cp932 codec, by the rules of
doc/formats/text.md: ASCII as it is, the byte after '#' or '%' alone, a
pair as its character when that converts back to the same pair, any
other byte (and every control byte but tab) as U+F700 plus its value.
Speaks TAP.  Usage: pocheck.py TEXTDIR MESSAGES.json"""
import json
import sys

import polib

RAW = 0xF700
FILES = {"evMsgTbl": "events.pot", "evMsgTblp": "events-parody.pot",
         "evStrMsgTbl": "subtitles.pot", "evStrMsgTblp": "subtitles-parody.pot"}


def single(b):
    if b < 0x80:
        return chr(b) if b >= 0x20 and b != 0x7F or b == 0x09 else chr(RAW + b)
    if 0xA1 <= b <= 0xDF:
        return bytes([b]).decode("cp932")
    return chr(RAW + b)


def pair(a, b):
    try:
        c = bytes([a, b]).decode("cp932")
    except UnicodeDecodeError:
        return None
    if len(c) != 1 or ord(c) < 0x80 or c.encode("cp932") != bytes([a, b]):
        return None
    if 0xFF61 <= ord(c) <= 0xFF9F:
        return None
    return c


def text(raw):
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        if c in (0x23, 0x25) and i + 1 < len(raw):
            out.append(chr(c) + single(raw[i + 1]))
            i += 2
            continue
        p = pair(c, raw[i + 1]) if c >= 0x80 and i + 1 < len(raw) else None
        if p:
            out.append(p)
            i += 2
            continue
        out.append(single(c))
        i += 1
    return "".join(out)


def msgid(raw):
    lines = raw.split(b"\0")
    assert len(lines) == 4 and lines[3] == b"", lines
    return "\n".join(text(line) for line in lines[:3])


def main():
    textdir, messages = sys.argv[1], sys.argv[2]
    tables = json.load(open(messages))
    n = 0
    for sym, msgs in tables.items():
        po = polib.pofile(f"{textdir}/{FILES[sym]}")
        entries = [e for e in po if e.msgid or e.msgctxt]
        n += 1
        ok = len(entries) == len(msgs)
        print(("ok" if ok else "not ok") + f" {n} - {FILES[sym]}: "
              f"{len(entries)} entries, the generator's {len(msgs)}")
        event = sym.startswith("evMsg")
        for e, m in zip(entries, msgs):
            n += 1
            what = "event {} message {}" if event else "stream {} line {}"
            ctx = what.format(m["number"], m["index"])
            raw = bytes.fromhex(m["text"])
            want = msgid(raw)
            name = bytes.fromhex(m["name"]) if m["name"] else None
            speaker = f"speaker: {text(name)}" if name else "no speaker"
            problems = []
            if e.msgctxt != ctx:
                problems.append(f"msgctxt {e.msgctxt!r}")
            if e.msgid != want:
                problems.append(f"msgid {e.msgid!r} != {want!r}")
            if speaker not in e.comment.split("\n"):
                problems.append(f"comment {e.comment!r} lacks {speaker!r}")
            if e.msgstr != "":
                problems.append("msgstr not empty")
            print(("not ok" if problems else "ok") + f" {n} - {FILES[sym]} "
                  f"{ctx}" + (": " + "; ".join(problems) if problems else ""))
    print(f"1..{n}")


main()
