#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ccsread.py - a CCSF scene file read for glbcheck.py, apart from ccsfs:
the chunk walk (texture and model chunks by their own length rules),
Obj, Clump, ExtObj, Model, Morpher and Anime chunks, and the game's pose
at a frame as FORMATS.md gives it (controllers, F_Obj records, world =
parent * T * Rx * Ry * Rz * S; Z-up; F_Morpher weights move a base
model's vertices toward its targets')."""
import math
import struct

import numpy as np

from gltfread import slerp, trs

def rx(d):
    c, s = math.cos(math.radians(d)), math.sin(math.radians(d))
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def ry(d):
    c, s = math.cos(math.radians(d)), math.sin(math.radians(d))
    return np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]])


def rz(d):
    c, s = math.cos(math.radians(d)), math.sin(math.radians(d))
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def axis_quat(axis, d):
    h = math.radians(d) / 2
    q = [0.0, 0.0, 0.0, math.cos(h)]
    q[axis] = math.sin(h)
    return np.array(q)


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz])


def euler_quat(deg):
    """The quaternion of Rx * Ry * Rz (degrees)."""
    return qmul(qmul(axis_quat(0, deg[0]), axis_quat(1, deg[1])),
                axis_quat(2, deg[2]))


def rounded(deg):
    """The game's key rounding: s16(int(deg * 182.044)) / 65536 turn."""
    out = []
    for d in deg:
        v = int(d * 182.044) & 0xffff
        v = v - 0x10000 if v >= 0x8000 else v
        out.append(v * 360.0 / 65536.0)
    return out


class Field:
    """One controller field: a constant, or keys [(frame, values)]."""

    def __init__(self, const=None, keys=None, rot=False):
        self.const, self.keys, self.rot = const, keys, rot

    def at(self, f):
        """Position, scale and floats: values; rotation: a quaternion."""
        if self.const is not None:
            return euler_quat(self.const) if self.rot else self.const
        ks = self.keys
        vals = [euler_quat(rounded(v)) if self.rot else np.array(v)
                for _, v in ks]
        if f <= ks[0][0]:
            return vals[0]
        if f >= ks[-1][0]:
            return vals[-1]
        k = max(i for i in range(len(ks)) if ks[i][0] <= f)
        u = (f - ks[k][0]) / (ks[k + 1][0] - ks[k][0])
        if self.rot:
            return slerp(vals[k], vals[k + 1], u)
        return vals[k] + u * (vals[k + 1] - vals[k])


class Ccs:
    def __init__(self, data):
        self.d = data
        if struct.unpack_from('<H', data, 0)[0] != 1 or data[8:12] != b'CCSF':
            raise ValueError('not a CCSF file')
        self.version = struct.unpack_from('<H', data, 0x2c)[0]
        self.names, self.objs, self.clumps = [], {}, []
        self.ext, self.models, self.animes = {}, {}, []
        self.marked = set()     # '#' objects: another file defines them
        self.ext_parent, self.obj2, self.cameras = {}, {}, set()
        self.clump_objs = []    # (CMP_ object, nodes), in file order
        self.morphers = []      # (MPH_, base MDL_), in file order
        o = 8 + 4 * struct.unpack_from('<I', data, 4)[0]
        self.in_frames = False
        for kind, p, o in self.chunks():
            if kind == 0x0002:
                self.read_index(p)
            elif kind == 0x0100:
                obj, parent, model = struct.unpack_from('<III', data, p)
                self.objs[obj] = (parent, model)
            elif kind == 0x0900:
                obj, n = struct.unpack_from('<IH', data, p)
                self.clumps.append(struct.unpack_from('<%dI' % n, data, p + 8))
                self.clump_objs.append((obj, self.clumps[-1]))
            elif kind == 0x1900:
                self.morphers.append(struct.unpack_from('<II', data, p))
            elif kind == 0x0a00:
                obj, parent, target = struct.unpack_from('<III', data, p)
                self.ext.setdefault(obj, target)
                self.ext_parent.setdefault(obj, parent)
            elif kind == 0x2000:
                obj, flags = struct.unpack_from('<II', data, p)
                self.obj2.setdefault(obj, flags)
            elif kind == 0x0500 and not self.in_frames:
                self.cameras.add(struct.unpack_from('<I', data, p)[0])
            elif kind == 0x0005:
                self.in_frames = True
            elif kind == 0x0700:
                self.read_anime(p)
        if o != len(data):      # a length rule went wrong somewhere
            raise ValueError('chunk walk ended at %d of %d' % (o, len(data)))

    def chunks(self):
        """(kind, payload offset, end) of every chunk in file order, the
        texture and model chunks by their own length rules (reading a
        model keeps it in self.models)."""
        d = self.d
        o = 8 + 4 * struct.unpack_from('<I', d, 4)[0]
        while o + 8 <= len(d):
            kind, _tag, size = struct.unpack_from('<HHI', d, o)
            p = o + 8
            end = p + 4 * size
            if kind == 0x0300:
                end = self.texture_end(p)
            elif kind == 0x0800:
                end = self.read_model(p)
            yield kind, p, end
            o = end

    def name(self, i):
        return self.names[i] if 0 < i < len(self.names) else None

    def read_index(self, p):
        files, objects = struct.unpack_from('<II', self.d, p)
        paths = [self.d[p + 8 + 32 * f:p + 9 + 32 * f] for f in range(files)]
        q = p + 8 + 32 * files
        for k in range(objects):
            raw = self.d[q + 32 * k:q + 32 * k + 30].split(b'\0')[0]
            self.names.append(raw.decode('cp932', 'replace'))
            f = struct.unpack_from('<H', self.d, q + 32 * k + 30)[0]
            if f < files and paths[f] == b'#':
                self.marked.add(k)

    def texture_end(self, p):
        # the size field is wrong here: the real length is the header
        # plus each level's 2 + count words (seed 001).
        p += 12 if self.version >= 0x92 else 8
        mip = 0
        if self.version >= 0x90:
            mip = self.d[p + 2]
            p += 8
        else:
            p += 4
        for _ in range(mip + 1):
            p += 8 + 4 * struct.unpack_from('<I', self.d, p + 4)[0]
        return p

    def read_model(self, p):
        """Model chunk at payload p: positions of each mmat (bone: with
        their node slot; skin: entries (pos, weight, slot, last)).
        Returns where the chunk really ends."""
        d = self.d
        model, scale, mtype, nmm = struct.unpack_from('<IfHH', d, p)
        if self.version < 0x100:
            mtype &= 0xff
        p += 20
        mm = []
        pos = lambda q, n: (np.frombuffer(d, '<i2', 3 * n, q).reshape(n, 3)
                            .astype(float) * scale / 4096.0,
                            q + ((6 * n + 3) & ~3))
        for _ in range(nmm if nmm else 0):
            if mtype & 2:
                raise ValueError('mtype & 2 models are not in the data')
            if mtype & 4:
                _mat, n, offs = struct.unpack_from('<III', d, p)
                p += 12
                if offs == 0:
                    slot = struct.unpack_from('<I', d, p)[0]
                    v, p = pos(p + 4, n)
                    p += 8 * n
                    mm.append(('bone', v, slot))
                else:
                    ent = []
                    for e in range(offs):
                        x, y, z, w = struct.unpack_from('<hhhH', d, p + 8 * e)
                        ent.append((np.array([x, y, z]) * scale / 4096.0,
                                    w & 0x1ff, w >> 10, bool(w & 0x200)))
                    p += 12 * offs + 4 * sum(1 for e in ent if e[3])
                    mm.append(('skin', ent, n))
            elif mtype & 8:
                vn, inum = struct.unpack_from('<ii', d, p)
                p += 8
                if vn:
                    v, p = pos(p, vn)
                    p += 12 * (inum // 3)
                    mm.append(('shadow', v, None))
            else:
                _name, _mat, n = struct.unpack_from('<III', d, p)
                v, p = pos(p + 12, n)
                p += 4 * n * ((not mtype & 0x40) + (not mtype & 0x200) +
                              (not mtype & 0x400))
                mm.append(('rigid', v, None))
        self.models[model] = (mtype, mm)
        return p

    def read_anime(self, p):
        d = self.d
        obj, frames, words = struct.unpack_from('<III', d, p)
        a = dict(object=obj, frames=frames, ctl={}, fobj={}, morph={})
        q, end, top = p + 12, p + 12 + 4 * words, 0
        while q + 8 <= end:
            kind, _tag, size = struct.unpack_from('<HHI', d, q)
            r = q + 8
            if kind == 0xff01:
                top = struct.unpack_from('<I', d, r)[0]
                if top >= 0xfffffffe:
                    break
            elif kind == 0x0102 and top == 0:
                target, flags = struct.unpack_from('<II', d, r)
                a['ctl'][target] = self.controller(r + 8, flags)
            elif kind == 0x0101:
                target = struct.unpack_from('<I', d, r)[0]
                v = struct.unpack_from('<9f', d, r + 8)
                a['fobj'].setdefault(target, []).append(
                    (top, v[0:3], v[3:6], v[6:9]))
            elif kind == 0x1901:
                mph, n = struct.unpack_from('<IH', d, r)
                n = min(n, (4 * size - 8) // 8)
                pairs = [struct.unpack_from('<If', d, r + 8 + 8 * i)
                         for i in range(n)]
                a['morph'].setdefault(mph, []).append((top, pairs))
            q = r + 4 * size
        self.animes.append(a)

    def controller(self, r, flags):
        """The position, rotation, scale fields of an object controller
        (transparency read past): {name: Field}."""
        out = {}
        for k, (nm, nv) in enumerate([('t', 3), ('r', 3), ('s', 3),
                                      ('alpha', 1)]):
            sel = (flags >> (3 * k)) & 7
            if sel == 0:
                continue
            if sel == 1:
                out[nm] = Field(const=list(struct.unpack_from(
                    '<%df' % nv, self.d, r)), rot=nm == 'r')
                r += 4 * nv
            elif sel == 2:
                n = struct.unpack_from('<I', self.d, r)[0]
                r += 4
                keys = []
                for _ in range(n):
                    fr = struct.unpack_from('<I', self.d, r)[0]
                    keys.append((fr, list(struct.unpack_from(
                        '<%df' % nv, self.d, r + 4))))
                    r += 4 + 4 * nv
                out[nm] = Field(keys=keys, rot=nm == 'r')
            else:
                raise ValueError('controller selector %d' % sel)
        return out

    def local(self, anime, obj, f, use_fobj=True):
        """The game's T * Rx * Ry * Rz * S of object obj at frame f of an
        Anime chunk (identity when nothing drives it)."""
        m = np.eye(4)
        if anime is None:
            return m
        ctl = anime['ctl'].get(obj)
        recs = [r for r in anime['fobj'].get(obj, []) if r[0] <= f]
        if use_fobj and recs:
            _, t, r, s = recs[-1]       # holds from its frame on
            return (trs(t, [0, 0, 0, 1], [1, 1, 1]) @ rx(r[0]) @ ry(r[1]) @
                    rz(r[2]) @ np.diag(list(s) + [1]))
        if ctl:
            t = ctl['t'].at(f) if 't' in ctl else [0, 0, 0]
            q = ctl['r'].at(f) if 'r' in ctl else [0, 0, 0, 1]
            s = ctl['s'].at(f) if 's' in ctl else [1, 1, 1]
            m = trs(t, q, s)
        return m

    def world(self, anime, f, use_fobj=True):
        """World matrix of every object with an Obj chunk."""
        driven = {}
        if anime is not None:   # an ExtObj's controller drives its target
            for e, tgt in self.ext.items():
                if e in anime['ctl'] or e in anime['fobj']:
                    driven[tgt] = e
        memo = {}

        def w(o, depth=0):
            if o in memo:
                return memo[o]
            parent = self.objs[o][0]
            pm = (w(parent, depth + 1) if parent in self.objs and depth < 256
                  else np.eye(4))
            src = driven.get(o, o)
            memo[o] = pm @ self.local(anime, src, f, use_fobj)
            return memo[o]
        return {o: w(o) for o in self.objs}

    def clump_of(self, obj):
        for c in self.clumps:
            if obj in c:
                return c
        return None

    def fits(self, base, target):
        """A target moves the base's vertices one for one: the same
        mmats, the same vertex counts; a skin base is not morphed."""
        if target not in self.models:
            return False
        bm, tm = self.models[base][1], self.models[target][1]
        return (len(bm) == len(tm) and
                all(b[0] in ('rigid', 'bone') and len(b[1]) == len(t[1])
                    for b, t in zip(bm, tm)))

    def morph_of(self, model):
        """(MPH_, fitting targets in first-named order) of the first
        morpher whose base is model, or None."""
        mph = next((m for m, b in self.morphers if b == model), None)
        if mph is None:
            return None
        named = []
        for a in self.animes:
            for _top, pairs in a['morph'].get(mph, []):
                named += [t for t, _w in pairs if t and t not in named]
        return mph, [t for t in named if self.fits(model, t)]

    def morph_weights(self, anime, f, model):
        """{target: weight} of model's morpher at frame f: the latest
        F_Morpher record at or before f holds; 0 before any and for the
        targets it does not name."""
        m = self.morph_of(model)
        if m is None or anime is None:
            return {}
        mph, targets = m
        out = {t: 0.0 for t in targets}
        recs = [r for r in anime['morph'].get(mph, []) if r[0] <= f]
        for t, w in (recs[-1][1] if recs else []):
            if t in out:
                out[t] = w if math.isfinite(w) else 0.0
        return out

    def model_world(self, model, owner, world, weights=None):
        """Game world positions of a model owned by object `owner`, one
        per vertex in file order, how many skin vertices have entries
        that disagree, and how many vertices follow a slot past the
        clump's end (the identity here; what the game does is unknown)."""
        mtype, mm = self.models[model]
        clump = self.clump_of(owner) or ()
        node_w = lambda s: world.get(clump[s], np.eye(4)) if s < len(clump) \
            else None
        out, disagree, noslot = [], 0, 0
        for i, (kind, v, extra) in enumerate(mm):
            if kind in ('rigid', 'bone'):
                for t, wt in (weights or {}).items():
                    v = v + wt * (self.models[t][1][i][1] - mm[i][1])
            if kind == 'rigid':
                out.append(apply(world.get(owner, np.eye(4)), v))
            elif kind == 'bone':
                nw = node_w(extra)
                noslot += len(v) if nw is None else 0
                out.append(apply(nw if nw is not None else np.eye(4), v))
            elif kind == 'skin':
                pts, acc, each, vbad = [], np.zeros(3), [], False
                for p, wgt, slot, last in v:
                    nw = node_w(slot)
                    vbad = vbad or nw is None
                    wp = apply(nw if nw is not None else np.eye(4), p[None])[0]
                    acc = acc + wgt / 256.0 * wp
                    each.append(wp)
                    if last:
                        pts.append(acc)
                        spread = max(np.linalg.norm(e - each[0]) for e in each)
                        disagree += spread > 1e-4 * (1 + np.linalg.norm(acc))
                        noslot += vbad
                        acc, each, vbad = np.zeros(3), [], False
                out.append(np.array(pts).reshape(-1, 3))
        return (np.vstack(out) if out else np.zeros((0, 3))), disagree, noslot


def apply(m, v):
    v = np.asarray(v, float).reshape(-1, 3)
    return v @ m[:3, :3].T + m[:3, 3]
