#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glbcheck.py - a scene.glb checked against the game's own pose.

    glbcheck.py SCENE.glb SOURCE.ccs [--frames 0,10,20] [--tol 1e-3]
                [--ignore-f-obj]
    glbcheck.py --info SOURCE.ccs [MDL_name]

--info prints what the tests expect of a file, from the CCSF alone:
obj_chunks, clump_nodes (the largest clump), anime_frames (the first Anime
chunk), models; with a model's name, its frame-0 world positions as the
posed model.obj should hold them: vertices=N bbox=X0,Y0,Z0,X1,Y1,Z1.

Two readers that share nothing with ccsfs: a glTF 2.0 binary reader
(accessors, animation sampling, node world matrices, skinning) and a CCSF
reader (Obj, Clump, ExtObj, Model and Anime chunks) that poses the scene
the way FORMATS.md says the game does.  Every mesh of the GLB is put in
world space at each frame and compared with the game's world positions
of its model turned from Z-up to Y-up (R_x(-90) * game).  Exit 1 on
mismatches beyond the skin vertices whose entries disagree (which no
inverse bind matrix can follow once the joints move), 2 on a bad file.

Only Python 3 and numpy, so it runs wherever the test suite does.
"""
import json
import math
import struct
import sys

import numpy as np

# ---------------------------------------------------------------- glTF side

COMPONENT = {5120: np.int8, 5121: np.uint8, 5122: np.int16,
             5123: np.uint16, 5125: np.uint32, 5126: np.float32}
NCOMP = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4,
         'MAT2': 4, 'MAT3': 9, 'MAT4': 16}


class Glb:
    def __init__(self, data):
        magic, version, length = struct.unpack_from('<4sII', data, 0)
        if magic != b'glTF' or version != 2:
            raise ValueError('not a glTF 2.0 binary')
        if length != len(data):
            raise ValueError('header length %d, file %d' % (length, len(data)))
        o, self.json, self.bin = 12, None, b''
        while o < length:
            clen, ctype = struct.unpack_from('<II', data, o)
            chunk = data[o + 8:o + 8 + clen]
            if ctype == 0x4E4F534A:
                self.json = json.loads(chunk.decode('utf-8'))
            elif ctype == 0x004E4942:
                self.bin = chunk
            o += 8 + clen
        if self.json is None:
            raise ValueError('no JSON chunk')
        self.nodes = self.json.get('nodes', [])

    def buffer_view(self, i):
        bv = self.json['bufferViews'][i]
        if bv['buffer'] != 0 or 'uri' in self.json['buffers'][0]:
            raise ValueError('only the GLB BIN buffer is read')
        o = bv.get('byteOffset', 0)
        return self.bin[o:o + bv['byteLength']], bv.get('byteStride')

    def accessor(self, i):
        """Accessor i as a float64 array of shape (count, components)
        (normalized integers scaled as glTF says), or integers as they
        are for indices and joints."""
        a = self.json['accessors'][i]
        dt = np.dtype(COMPONENT[a['componentType']]).newbyteorder('<')
        nc, count = NCOMP[a['type']], a['count']
        elem = dt.itemsize * nc
        if a['type'] in ('MAT2', 'MAT3') and dt.itemsize < 4:
            raise ValueError('padded matrix columns are not read')
        if 'bufferView' in a:
            raw, stride = self.buffer_view(a['bufferView'])
            stride = stride or elem
            off = a.get('byteOffset', 0)
            out = np.empty((count, nc), dt)
            for k in range(count):
                out[k] = np.frombuffer(raw, dt, nc, off + k * stride)
        else:
            out = np.zeros((count, nc), dt)
        sp = a.get('sparse')
        if sp:
            idt = np.dtype(COMPONENT[sp['indices']['componentType']])
            iraw, _ = self.buffer_view(sp['indices']['bufferView'])
            vraw, _ = self.buffer_view(sp['values']['bufferView'])
            idx = np.frombuffer(iraw, idt.newbyteorder('<'), sp['count'],
                                sp['indices'].get('byteOffset', 0))
            val = np.frombuffer(vraw, dt, sp['count'] * nc,
                                sp['values'].get('byteOffset', 0))
            out[idx] = val.reshape(-1, nc)
        if a.get('normalized'):
            info = np.iinfo(dt)
            f = out.astype(np.float64) / info.max
            return np.maximum(f, -1.0)      # signed: max(c / max, -1)
        if dt.kind == 'f':
            return out.astype(np.float64)
        return out

    # -- animation

    def sample(self, anim, t):
        """{node: {path: value}} of animation `anim` (an index) at t s."""
        a = self.json['animations'][anim]
        out = {}
        for ch in a['channels']:
            tgt = ch['target']
            if 'node' not in tgt or tgt['path'] == 'weights':
                continue
            s = a['samplers'][ch['sampler']]
            times = self.accessor(s['input'])[:, 0]
            vals = self.accessor(s['output'])
            out.setdefault(tgt['node'], {})[tgt['path']] = \
                sample_curve(times, vals, s.get('interpolation', 'LINEAR'),
                             tgt['path'] == 'rotation', t)
        return out

    # -- transforms

    def local(self, i, over=None):
        n = self.nodes[i]
        if 'matrix' in n:
            return np.array(n['matrix'], float).reshape(4, 4).T
        p = dict(translation=n.get('translation', [0, 0, 0]),
                 rotation=n.get('rotation', [0, 0, 0, 1]),
                 scale=n.get('scale', [1, 1, 1]))
        if over:
            p.update(over)
        return trs(p['translation'], p['rotation'], p['scale'])

    def worlds(self, anim=None, t=0.0):
        """World matrix of every node reachable from scene 0's roots."""
        over = self.sample(anim, t) if anim is not None else {}
        world = {}

        def walk(i, parent):
            world[i] = parent @ self.local(i, over.get(i))
            for c in self.nodes[i].get('children', []):
                walk(c, world[i])
        scene = self.json.get('scene', 0)
        for r in self.json['scenes'][scene]['nodes']:
            walk(r, np.eye(4))
        return world

    def mesh_world_positions(self, i, world):
        """Positions of node i's mesh (every primitive, in order) in world
        space: skinned as sum(w * jointWorld * IBM * p), else world * p."""
        n = self.nodes[i]
        mesh = self.json['meshes'][n['mesh']]
        skin = self.json['skins'][n['skin']] if 'skin' in n else None
        if skin:
            joints = skin['joints']
            if 'inverseBindMatrices' in skin:
                ibm = self.accessor(skin['inverseBindMatrices'])
                ibm = ibm.reshape(-1, 4, 4).transpose(0, 2, 1)
            else:
                ibm = np.tile(np.eye(4), (len(joints), 1, 1))
            jm = np.array([world[j] for j in joints]) @ ibm
        parts = []
        for prim in mesh['primitives']:
            attr = prim['attributes']
            p = self.accessor(attr['POSITION'])
            ph = np.hstack([p, np.ones((len(p), 1))])
            if skin:
                acc = np.zeros((len(p), 4))
                k = 0
                while 'JOINTS_%d' % k in attr:
                    jo = self.accessor(attr['JOINTS_%d' % k]).astype(int)
                    we = self.accessor(attr['WEIGHTS_%d' % k])
                    for c in range(4):
                        acc += we[:, c:c + 1] * np.einsum(
                            'vij,vj->vi', jm[jo[:, c]], ph)
                    k += 1
                parts.append(acc[:, :3])
            else:
                parts.append((ph @ world[i].T)[:, :3])
        return np.vstack(parts) if parts else np.zeros((0, 3))


def quat_mat(q):
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def trs(t, r, s):
    m = np.eye(4)
    m[:3, :3] = quat_mat(np.asarray(r, float)) * np.asarray(s, float)
    m[:3, 3] = t
    return m


def slerp(a, b, u):
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = float(a @ b)
    if d < 0:                       # the short way round
        b, d = -b, -d
    if d > 0.9995:
        q = a + u * (b - a)
    else:
        th = math.acos(min(d, 1.0))
        q = (math.sin((1 - u) * th) * a + math.sin(u * th) * b) / math.sin(th)
    return q / np.linalg.norm(q)


def sample_curve(times, vals, interp, is_rot, t):
    """A glTF sampler at time t: clamped to the first and last key
    outside their range; STEP holds; LINEAR lerps (slerps quaternions).
    CUBICSPLINE values are (in-tangent, value, out-tangent) triples."""
    if interp == 'CUBICSPLINE':
        v3 = vals.reshape(len(times), 3, -1)
        vals = v3[:, 1]
        tang = v3
    # Key times are float32 in the file: frame / 30 s is a hair off, so a
    # time within 1e-6 s of a key is that key (a STEP sampled at a key's
    # own frame must give that key, not the one before).
    near = np.nonzero(np.abs(times - t) <= 1e-6)[0]
    if len(near):
        t = times[near[-1]]
    if t <= times[0]:
        return vals[0]
    if t >= times[-1]:
        return vals[-1]
    k = int(np.searchsorted(times, t, side='right')) - 1
    t0, t1 = times[k], times[k + 1]
    u = (t - t0) / (t1 - t0)
    if interp == 'STEP':
        return vals[k]
    if interp == 'CUBICSPLINE':
        d = t1 - t0
        u2, u3 = u * u, u * u * u
        v = ((2 * u3 - 3 * u2 + 1) * vals[k] + d * (u3 - 2 * u2 + u) *
             tang[k, 2] + (-2 * u3 + 3 * u2) * vals[k + 1] +
             d * (u3 - u2) * tang[k + 1, 0])
        return v / np.linalg.norm(v) if is_rot else v
    if is_rot:
        return slerp(vals[k], vals[k + 1], u)
    return vals[k] + u * (vals[k + 1] - vals[k])


# ---------------------------------------------------------------- game side

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
        o = 8 + 4 * struct.unpack_from('<I', data, 4)[0]
        while o + 8 <= len(data):
            kind, _tag, size = struct.unpack_from('<HHI', data, o)
            p = o + 8
            end = p + 4 * size
            if kind == 0x0002:
                self.read_index(p)
            elif kind == 0x0100:
                obj, parent, model = struct.unpack_from('<III', data, p)
                self.objs[obj] = (parent, model)
            elif kind == 0x0900:
                obj, n = struct.unpack_from('<IH', data, p)
                self.clumps.append(struct.unpack_from('<%dI' % n, data, p + 8))
            elif kind == 0x0a00:
                obj, parent, target = struct.unpack_from('<III', data, p)
                self.ext[obj] = target
            elif kind == 0x0300:
                end = self.texture_end(p)
            elif kind == 0x0800:
                end = self.read_model(p)
            elif kind == 0x0700:
                self.read_anime(p)
            o = end
        if o != len(data):      # a length rule went wrong somewhere
            raise ValueError('chunk walk ended at %d of %d' % (o, len(data)))

    def name(self, i):
        return self.names[i] if 0 < i < len(self.names) else None

    def read_index(self, p):
        files, objects = struct.unpack_from('<II', self.d, p)
        q = p + 8 + 32 * files
        for k in range(objects):
            raw = self.d[q + 32 * k:q + 32 * k + 30].split(b'\0')[0]
            self.names.append(raw.decode('cp932', 'replace'))

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
        a = dict(object=obj, frames=frames, ctl={}, fobj={})
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

    def model_world(self, model, owner, world):
        """Game world positions of a model owned by object `owner`, one
        per vertex in file order, how many skin vertices have entries
        that disagree, and how many vertices follow a slot past the
        clump's end (the identity here; what the game does is unknown)."""
        mtype, mm = self.models[model]
        clump = self.clump_of(owner) or ()
        node_w = lambda s: world.get(clump[s], np.eye(4)) if s < len(clump) \
            else None
        out, disagree, noslot = [], 0, 0
        for kind, v, extra in mm:
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


# ---------------------------------------------------------------- compare

def mismatches(a, b, tol):
    """Points of a with no point of b within tol and the other way round
    (the order of vertices is the writer's business; their places are
    not), or, when the counts agree, point by point in order."""
    if len(a) == len(b):
        return int(np.sum(np.linalg.norm(a - b, axis=1) > tol)), 'in order'
    miss = 0
    for x, y in ((a, b), (b, a)):
        for k in range(0, len(x), 512):
            dd = np.linalg.norm(x[k:k + 512, None] - y[None], axis=2)
            miss += int(np.sum(dd.min(axis=1) > tol)) if len(y) else len(x)
    return miss, 'as sets (%d vs %d)' % (len(a), len(b))


def info(argv):
    ccs = Ccs(open(argv[0], 'rb').read())
    print('obj_chunks=%d clump_nodes=%d anime_frames=%d models=%d' % (
        len(ccs.objs), max((len(c) for c in ccs.clumps), default=0),
        ccs.animes[0]['frames'] if ccs.animes else 0, len(ccs.models)))
    if len(argv) > 1:
        model = ccs.names.index(argv[1])
        owner = next((o for o, (_p, m) in sorted(ccs.objs.items())
                      if m == model), 0)
        anime = ccs.animes[0] if ccs.animes else None
        v = ccs.model_world(model, owner, ccs.world(anime, 0))[0]
        if not len(v):
            print('vertices=0')
            return 0
        print('vertices=%d bbox=%s' % (len(v), ','.join(
            '%.6g' % x for x in list(v.min(axis=0)) + list(v.max(axis=0)))))
    return 0


def main(argv):
    if argv[:1] == ['--info']:
        return info(argv[1:])
    args, frames, tol, use_fobj = [], [0, 10, 20], 1e-3, True
    it = iter(argv)
    for a in it:
        if a == '--frames':
            frames = [int(x) for x in next(it).split(',')]
        elif a == '--tol':
            tol = float(next(it))
        elif a == '--ignore-f-obj':
            use_fobj = False
        else:
            args.append(a)
    if len(args) != 2:
        print(__doc__.strip().split('\n\n')[0], file=sys.stderr)
        return 2
    glb = Glb(open(args[0], 'rb').read())
    ccs = Ccs(open(args[1], 'rb').read())
    extras = glb.json.get('asset', {}).get('extras', {})
    allowed = int(extras.get('skin_vertices_disagreeing', 0))
    by_name = {}
    for i, o in enumerate(ccs.names):
        by_name.setdefault(o, i)
    owner_of = {}
    for o, (_p, m) in sorted(ccs.objs.items()):
        owner_of.setdefault(m, o)
    anims = glb.json.get('animations', [])
    # (glTF animation index, Anime chunk): each by the ANM_ object's name;
    # a file without Anime chunks is checked still, at frame 0.
    runs = []
    for a in ccs.animes:
        nm = ccs.name(a['object'])
        k = next((i for i, g in enumerate(anims) if g.get('name') == nm), None)
        if k is None:
            print('%s: no animation named %s' % (args[0], nm))
            return 1
        runs.append((k, a))
    if not runs:
        runs = [(None, None)]
    up = rx(-90)        # game Z-up to glTF Y-up, as the root node turns it
    total = bad = 0
    ours = -1
    dis0 = {}           # skin vertices disagreeing at frame 0, by model
    frames = sorted(set(frames) | {0})
    for k, anime in runs:
        last = max(anime['frames'] - 1, 0) if anime else 0
        for f in sorted({min(f, last) for f in frames}):
            gw = glb.worlds(k, f / 30.0)
            world = ccs.world(anime, f, use_fobj)
            disagree_all = 0
            for i, n in enumerate(glb.nodes):
                if 'mesh' not in n or i not in gw:
                    continue
                o = by_name.get(n.get('name'))
                if o is None:
                    print('node %d %r: no such object' % (i, n.get('name')))
                    bad += 1
                    continue
                if o in ccs.models:           # a bone or skin model's node
                    model, owner = o, owner_of.get(o, 0)
                else:                         # a rigid model on its owner
                    model, owner = ccs.objs.get(o, (0, 0))[1], o
                if model not in ccs.models:
                    print('node %r: no model' % n['name'])
                    bad += 1
                    continue
                want, dis, noslot = ccs.model_world(model, owner, world)
                want = apply(up, want)
                disagree_all += dis
                if f == 0:
                    dis0[model] = dis + noslot
                got = glb.mesh_world_positions(i, gw)
                size = float(np.ptp(want, axis=0).max()) if len(want) else 0
                t = tol * max(size, 1.0)
                miss, how = mismatches(got, want, t)
                total += len(want)
                print('frame %d %s: %d vertices, %d mismatches (%s, tol %.3g)'
                      '%s' % (f, n['name'], len(want), miss, how, t,
                              ', %d vertices follow a slot past the clump' % noslot
                              if noslot else ''))
                # skin vertices whose entries disagree follow no glTF
                # joint once the joints move, and a slot past the clump
                # is anybody's guess: both allowed after frame 0
                bad += max(0, miss - (dis0.get(model, 0) if f else 0))
            if f == 0:
                ours = disagree_all
    if ours >= 0 and ours != allowed:
        print('skin vertices disagreeing: glb says %d, counted %d'
              % (allowed, ours))
        bad += 1
    print('%s: %d vertices compared, %d mismatches' % (args[0], total, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except (ValueError, KeyError, IndexError, struct.error) as e:
        print('glbcheck: %s' % e, file=sys.stderr)
        sys.exit(2)
