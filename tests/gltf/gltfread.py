#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gltfread.py - a glTF 2.0 binary read for glbcheck.py with numpy alone:
the JSON and BIN chunks, accessors of every componentType (normalized,
strided, sparse), animations sampled at a time (STEP, LINEAR with slerp,
CUBICSPLINE; clamped outside the keys), node world matrices, morph
targets and skinned positions."""
import json
import math
import struct

import numpy as np

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

    def sample_weights(self, anim, t):
        """{node: weights} of animation `anim`'s weights channels at t s
        (STEP, LINEAR or CUBICSPLINE, one value per morph target)."""
        if anim is None:
            return {}
        a = self.json['animations'][anim]
        out = {}
        for ch in a['channels']:
            tgt = ch['target']
            if 'node' not in tgt or tgt['path'] != 'weights':
                continue
            s = a['samplers'][ch['sampler']]
            times = self.accessor(s['input'])[:, 0]
            interp = s.get('interpolation', 'LINEAR')
            per = 3 if interp == 'CUBICSPLINE' else 1
            vals = self.accessor(s['output']).reshape(len(times) * per, -1)
            out[tgt['node']] = sample_curve(times, vals, interp, False, t)
        return out

    def default_weights(self, i):
        """Node i's morph weights with no animation: the node's, else its
        mesh's, else 0 for every target."""
        n = self.nodes[i]
        mesh = self.json['meshes'][n['mesh']]
        count = len(mesh['primitives'][0].get('targets', [])) \
            if mesh['primitives'] else 0
        w = n.get('weights', mesh.get('weights', [0.0] * count))
        return np.asarray(w, float)

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

    def mesh_world_positions(self, i, world, weights=None):
        """Positions of node i's mesh (every primitive, in order) in world
        space, morphed by `weights` (else the defaults) and then skinned
        as sum(w * jointWorld * IBM * p), else world * p."""
        n = self.nodes[i]
        if weights is None:
            weights = self.default_weights(i)
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
            for w, tg in zip(weights, prim.get('targets', [])):
                if 'POSITION' in tg:
                    p = p + w * self.accessor(tg['POSITION'])
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
