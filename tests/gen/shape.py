#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""shape.py - the shape of a DATA.BIN: objects by name prefix, chunks by kind.

    shape.py ARCHIVE                 totals, beside the Infection disc's
    shape.py ARCHIVE --check         the same; exit 1 unless every count
                                     with a reference is within 10 %
    shape.py ARCHIVE --members       one line per member: its objects by
                                     prefix | the chunks by kind | the
                                     objects that own a setup chunk (the
                                     mounted tree's object folders) by
                                     prefix

Reads the archive itself (gzip members on 2048-byte boundaries) and walks
each CCSF file with the length rules of doc/formats/ccsf.md: a texture's
length from its levels, an mtype & 4 model's 15 words a mmat shorter than
its size field, every other chunk by its size field.  The references are
the counts doc/formats/ccsf.md gives for the Infection disc's DATA.BIN.
"""
import struct
import sys
import zlib

SECTOR = 2048

KINDS = {
    0x0001: "header", 0x0002: "index", 0x0003: "setup", 0x0005: "frame",
    0x0100: "obj", 0x0200: "material", 0x0300: "texture", 0x0400: "clut",
    0x0500: "camera", 0x0600: "light", 0x0700: "anime", 0x0800: "model",
    0x0900: "clump", 0x0a00: "extobj", 0x0b00: "hit", 0x0c00: "bbox",
    0x0d00: "particle", 0x0e00: "eff", 0x1000: "bltgrp", 0x1100: "fbrect",
    0x1200: "fbpage", 0x1300: "dummypos", 0x1400: "dummyposrot",
    0x1700: "layer", 0x1800: "shadow", 0x1900: "morpher", 0x2000: "obj2",
    0x2200: "pcm", 0xff01: "top",
}

# The Infection disc's DATA.BIN (doc/formats/ccsf.md): 1,023 files.
MEMBERS = 1023
PREFIXES = {
    "OBJ_": 244315, "MDL_": 33661, "MAT_": 11071, "CMP_": 7254,
    "CLT_": 5538, "TEX_": 4306, "ANM_": 4091, "DMY_": 2529, "HIT_": 2388,
    "LGT_": 421, "BLT_": 290, "BOX_": 237, "MPH_": 233, "EFF_": 171,
    "CAM_": 20, "FBR_": 2, "PAG_": 1,
}
CHUNKS = {
    "header": 1023, "index": 1023, "setup": 1023, "frame": 1023,
    "camera": 16, "light": 421, "hit": 2285, "eff": 171, "dummypos": 1207,
    "dummyposrot": 1322, "morpher": 233, "obj2": 218971, "fbrect": 2,
    "fbpage": 1, "texture": 4306, "clut": 5538, "anime": 4091,
    "material": 11071, "model": 17254,
}


def members(path):
    """(name, inflated bytes) of each gzip member, in archive order."""
    with open(path, "rb") as f:
        data = memoryview(f.read())
    at = 0
    while at + 10 <= len(data) and bytes(data[at:at + 3]) == b"\x1f\x8b\x08":
        end = bytes(data[at + 10:at + 300]).index(b"\0")
        name = bytes(data[at + 10:at + 10 + end]).decode("latin-1")
        d = zlib.decompressobj(31)
        out = []
        pos = at
        while not d.eof:
            step = bytes(data[pos:pos + (1 << 20)])
            if not step:
                raise SystemExit(f"{name}: cut short")
            out.append(d.decompress(step))
            pos += len(step)
        used = pos - at - len(d.unused_data)
        yield name, b"".join(out)
        at += (used // SECTOR + 1) * SECTOR


def chunk_length(kind, size, body, at, version):
    """The chunk's real payload length, where the size field is wrong."""
    if kind == 0x0300:
        p = at + 8 + (4 if version >= 0x92 else 0)
        levels = 1
        if version >= 0x90:
            levels = body[p + 2] + 1
            p += 6
        else:
            p += 2
        p = (p + 3) & ~3
        for _ in range(levels):
            (count,) = struct.unpack_from("<I", body, p + 4)
            p += 8 + 4 * count
        return p - at
    if kind == 0x0800:
        mtype, mmats = struct.unpack_from("<HH", body, at + 8)
        if version < 0x100:
            mtype &= 0xff
        if mtype & 4:
            return 4 * size - 60 * mmats
    return 4 * size


def prefix(name):
    cut = name.find(b"_")
    return name[:cut + 1].decode("latin-1") if cut > 0 else "(other)"


# Setup chunks whose first word is not an object.
NOT_OWNED = {0x0001, 0x0002, 0x0003, 0x0005, 0x1700, 0x2200}


def walk(ccs, objects, chunks, owners=None):
    """Counts one CCSF file's objects by prefix and chunks by kind, and
    into owners the objects that own a setup chunk, by prefix."""
    (version,) = struct.unpack_from("<H", ccs, 0x2c)
    at = 0
    names, owned, setup = [], set(), True
    while at + 8 <= len(ccs):
        kind, _tag, size = struct.unpack_from("<HHI", ccs, at)
        name = KINDS.get(kind, f"0x{kind:04x}")
        chunks[name] = chunks.get(name, 0) + 1
        if kind == 0x0002:
            files, count = struct.unpack_from("<II", ccs, at + 8)
            base = at + 16 + 32 * files
            names = [b""] + [ccs[base + 32 * i:base + 32 * i + 30].split(
                b"\0", 1)[0] for i in range(1, count)]
            for n in names[1:]:
                objects[prefix(n)] = objects.get(prefix(n), 0) + 1
        elif setup and kind not in NOT_OWNED:
            owned.add(struct.unpack_from("<I", ccs, at + 8)[0])
        setup = setup and kind != 0x0005
        at += 8 + chunk_length(kind, size, ccs, at + 8, version)
    if at != len(ccs):
        raise SystemExit(f"walk ends at {at} of {len(ccs)}")
    for i in owned:
        if owners is not None and 0 < i < len(names):
            owners[prefix(names[i])] = owners.get(prefix(names[i]), 0) + 1


def line(name, count, ref):
    if ref is None:
        return f"{name:14s} {count:9d}", True
    ok = abs(count - ref) <= ref * 0.10
    return (f"{name:14s} {count:9d}  {ref:9d}  {100.0 * (count - ref) / ref:+7.1f} %"
            f"{'' if ok else '  OUTSIDE 10 %'}"), ok


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    per_member = "--members" in argv
    objects, chunks, n = {}, {}, 0
    for name, ccs in members(argv[1]):
        mo, mc, mw = {}, {}, {}
        walk(ccs, mo, mc, mw)
        n += 1
        for d, m in ((objects, mo), (chunks, mc)):
            for k, v in m.items():
                d[k] = d.get(k, 0) + v
        if per_member:
            print(name, sum(mo.values()), " ".join(
                f"{k}{v}" for k, v in sorted(mo.items())), "|", " ".join(
                f"{k}:{v}" for k, v in sorted(mc.items())), "|", " ".join(
                f"{k}{v}" for k, v in sorted(mw.items())))
    good = True
    rows = [line("members", n, MEMBERS)]
    rows.append((f"objects        {sum(objects.values()):9d}", True))
    for k in sorted(set(objects) | set(PREFIXES), key=lambda k: -objects.get(k, 0)):
        rows.append(line(k, objects.get(k, 0), PREFIXES.get(k)))
    rows.append(("chunks", True))
    for k in sorted(set(chunks) | set(CHUNKS), key=lambda k: -chunks.get(k, 0)):
        rows.append(line(k, chunks.get(k, 0), CHUNKS.get(k)))
    print(f"{'':14s} {'here':>9s}  {'Infection':>9s}")
    for text, ok in rows:
        print(text)
        good = good and ok
    if "--check" in argv and not good:
        print("shape.py: counts outside 10 % of the Infection disc's")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
