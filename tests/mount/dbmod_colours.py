#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads a DBnnMOD.BIN's bytes itself (seeds/002) and checks that each
model's model.obj gives every face corner its stored vertex and the
colour the seed says: G3/G4 from the colour table by index, every other
kind its own r, g, b (GT faces as FT faces).  Usage: dbmod_colours.py
DATABASE FOLDER, FOLDER being the mounted database.  Prints one line per
mismatch and exits 1 on any."""
import os
import struct
import sys

SIZES = {0x20: 12, 0x28: 12, 0x30: 12, 0x38: 12,
         0x24: 24, 0x2c: 24, 0x34: 24, 0x3c: 24}
QUADS = {0x28, 0x38, 0x2c, 0x3c}
INDEXED = {0x30, 0x38}


def headers(data):
    """(id, offset, header fields) for every model, first of each id."""
    count = struct.unpack_from("<H", data, 4)[0]
    end = 8 + 4 * count
    seen = set()
    for i in range(count):
        raw = struct.unpack_from("<I", data, 8 + 4 * i)[0]
        if raw == 0xffffffff or raw >> 21 in seen:
            continue
        seen.add(raw >> 21)
        off = end + (raw & 0x1fffff)
        yield raw >> 21, off, end, struct.unpack_from("<IHHIII", data,
                                                      off + 0x0c)


def in_order(data, off, from_, h):
    b, nv, nc, v, c, f = h[0], h[1], h[2], h[3], h[4], h[5]
    b, v, c, f = (from_ + x for x in (b, v, c, f))
    chain = [off + 0x20, b, v] + ([c] if nc else []) + [f]
    return chain == sorted(chain) and f < len(data)


def corners(data, base):
    """Per model id, the faces as lists of ((x, y, z), (r, g, b))."""
    models = list(headers(data))
    if base is None:
        fit = sum(in_order(data, o, o, h) for _, o, _, h in models)
        fit_end = sum(in_order(data, o, e, h) for _, o, e, h in models)
        base = "model" if fit >= fit_end else "table"
    out = {}
    for mid, off, end, h in models:
        from_ = off if base == "model" else end
        vt, ct, at = from_ + h[3], from_ + h[4], from_ + h[5]
        faces = []
        while True:
            kind, n = struct.unpack_from("<HH", data, at)
            at += 4
            if kind == 0xff:
                break
            for _ in range(n):
                v = data[at + 4:at + 8]
                c = data[at + 8:at + 12]
                face = []
                for i in range(4 if kind in QUADS else 3):
                    xyz = struct.unpack_from("<hhh", data, vt + 8 * v[i])
                    rgb = (tuple(data[ct + 4 * c[i]:ct + 4 * c[i] + 3])
                           if kind in INDEXED else tuple(c[:3]))
                    face.append((xyz, rgb))
                if len(face) == 4:      # the OBJ's outline: v0 v1 v3 v2
                    face = [face[0], face[1], face[3], face[2]]
                faces.append(face)
                at += SIZES[kind]
        out[mid] = faces
    return out


def obj_faces(path):
    verts, faces = [], []
    with open(path, encoding="ascii") as f:
        for line in f:
            w = line.split()
            if w and w[0] == "v":
                xyz = tuple(int(x) for x in w[1:4])
                rgb = tuple(round(float(x) * 255) for x in w[4:7])
                verts.append((xyz, rgb))
            elif w and w[0] == "f":
                faces.append([verts[int(x.split("/")[0]) - 1]
                              for x in w[1:]])
    return faces


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    bad = 0
    for mid, want in corners(data, None).items():
        path = os.path.join(sys.argv[2], "%04d" % mid, "model.obj")
        got = obj_faces(path)
        if got != want:
            print("model %04d: model.obj %s, the bytes %s" % (mid, got, want))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
