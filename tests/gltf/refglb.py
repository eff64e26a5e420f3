#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""refglb.py - a stand-in scene.glb made in Python from a .ccs file, by
the conventions scene.glb follows, so that the test tools (validate.js,
glbcheck.py, blender_import.py) can be run on a realistic file before
ccsfs writes one.  Not a reference for the writer: its triangles are
plain strips over the vertices and it takes glbcheck.py's reading of the
file as it is.

    refglb.py SOURCE.ccs OUT.glb [TEXTURE.png]
"""
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glbcheck import Ccs, euler_quat, rounded  # noqa: E402


def mat_trs(m):
    """T, R (quaternion x, y, z, w), S of an affine matrix without shear."""
    s = np.linalg.norm(m[:3, :3], axis=0)
    r = m[:3, :3] / s
    w = np.sqrt(max(0.0, 1 + r[0, 0] + r[1, 1] + r[2, 2])) / 2
    if w > 1e-6:
        q = [(r[2, 1] - r[1, 2]) / (4 * w), (r[0, 2] - r[2, 0]) / (4 * w),
             (r[1, 0] - r[0, 1]) / (4 * w), w]
    else:                       # a half turn: from the largest diagonal
        k = int(np.argmax(np.diag(r)))
        i, j = (k + 1) % 3, (k + 2) % 3
        v = np.sqrt(max(0.0, 1 + r[k, k] - r[i, i] - r[j, j])) / 2
        q = [0.0, 0.0, 0.0, (r[j, i] - r[i, j]) / (4 * v)]
        q[k], q[i], q[j] = v, (r[i, k] + r[k, i]) / (4 * v), \
            (r[j, k] + r[k, j]) / (4 * v)
    return list(m[:3, 3]), list(np.array(q) / np.linalg.norm(q)), list(s)


class Out:
    def __init__(self):
        self.bin, self.views, self.accs = bytearray(), [], []

    def view(self, data, target=None):
        self.bin += b'\0' * (-len(self.bin) % 4)
        v = dict(buffer=0, byteOffset=len(self.bin), byteLength=len(data))
        if target:
            v['target'] = target
        self.bin += data
        self.views.append(v)
        return len(self.views) - 1

    def acc(self, arr, ctype, typ, target=None, minmax=False, **kw):
        dt = {5126: '<f4', 5121: 'u1', 5125: '<u4'}[ctype]
        a = np.ascontiguousarray(arr, dt)
        d = dict(bufferView=self.view(a.tobytes(), target),
                 componentType=ctype, type=typ, count=len(a), **kw)
        if minmax:
            d['min'] = [float(x) for x in a.reshape(len(a), -1).min(axis=0)]
            d['max'] = [float(x) for x in a.reshape(len(a), -1).max(axis=0)]
        self.accs.append(d)
        return len(self.accs) - 1


def strip(n, base=0):
    return [base + k + d for k in range(n - 2) for d in
            ((0, 1, 2) if k % 2 == 0 else (1, 0, 2))]


def main(src, dst, png=None):
    ccs = Ccs(open(src, 'rb').read())
    o = Out()
    anime = ccs.animes[0] if ccs.animes else None
    world0 = ccs.world(anime, 0)
    nodes = [dict(name='Z-up', rotation=[-0.70710677, 0, 0, 0.70710677],
                  children=[])]
    idx = {}
    for obj in sorted(ccs.objs):
        t, r, s = mat_trs(ccs.local(anime, obj, 0))
        idx[obj] = len(nodes)
        nodes.append(dict(name=ccs.name(obj), translation=t, rotation=r,
                          scale=s))
    for obj, (parent, _m) in sorted(ccs.objs.items()):
        up = nodes[idx[parent]] if parent in idx else nodes[0]
        up.setdefault('children', []).append(idx[obj])
    doc = dict(asset=dict(version='2.0', generator='refglb.py'),
               scene=0, scenes=[dict(nodes=[0])], nodes=nodes,
               meshes=[], skins=[], accessors=o.accs, bufferViews=o.views)
    mat = None
    if png:
        img = o.view(open(png, 'rb').read())
        doc.update(images=[dict(bufferView=img, mimeType='image/png')],
                   samplers=[dict(wrapS=10497, wrapT=10497)],
                   textures=[dict(source=0, sampler=0)],
                   materials=[dict(name='MAT', pbrMetallicRoughness=dict(
                       baseColorTexture=dict(index=0)))])
        mat = 0
    disagree = 0
    owners = {}
    for obj, (_p, m) in sorted(ccs.objs.items()):
        owners.setdefault(m, obj)
    for model, (mtype, mm) in sorted(ccs.models.items()):
        owner = owners.get(model)
        if owner is None or mtype & 8 or not mm:
            continue
        prims = []
        if not mtype & 4:               # rigid: model space, on the owner
            for kind, v, _ in mm:
                if len(v) < 3:
                    continue
                p = dict(attributes=dict(POSITION=o.acc(
                    v, 5126, 'VEC3', 34962, True), TEXCOORD_0=o.acc(
                    v[:, :2], 5126, 'VEC2', 34962)),
                    indices=o.acc(strip(len(v)), 5125, 'SCALAR', 34963))
                if mat is not None:
                    p['material'] = mat
                prims.append(p)
            if prims:
                nodes[idx[owner]]['mesh'] = len(doc['meshes'])
                doc['meshes'].append(dict(primitives=prims))
            continue
        clump = ccs.clump_of(owner) or ()
        pw, dis, _ = ccs.model_world(model, owner, world0)
        disagree += dis
        at = 0
        for kind, v, extra in mm:
            if kind == 'bone':
                n = len(v)
                j = [[extra if extra < len(clump) else 0, 0, 0, 0]] * n
                w = [[255, 0, 0, 0]] * n
            else:
                n, j, w, cur = extra, [], [], []
                for _p, wgt, slot, last in v:
                    cur.append((slot if slot < len(clump) else 0, wgt))
                    if last:
                        merged = {}
                        for sl, wg in cur:      # one weight per joint
                            merged[sl] = merged.get(sl, 0) + wg
                        cur = sorted(merged.items(), key=lambda e: -e[1])[:4]
                        tot = sum(e[1] for e in cur) or 1
                        ws = [round(255 * e[1] / tot) for e in cur]
                        ws[0] += 255 - sum(ws)
                        j.append([e[0] for e in cur] + [0] * (4 - len(cur)))
                        w.append(ws + [0] * (4 - len(cur)))
                        cur = []
            pos = pw[at:at + n]
            at += n
            if n < 3:
                continue
            p = dict(attributes=dict(
                POSITION=o.acc(pos, 5126, 'VEC3', 34962, True),
                JOINTS_0=o.acc(j, 5121, 'VEC4', 34962),
                WEIGHTS_0=o.acc(w, 5121, 'VEC4', 34962, normalized=True),
                TEXCOORD_0=o.acc(pos[:, :2], 5126, 'VEC2', 34962)),
                indices=o.acc(strip(n), 5125, 'SCALAR', 34963))
            if mat is not None:
                p['material'] = mat
            prims.append(p)
        if not prims or not clump:
            continue
        ibm = [np.linalg.inv(world0.get(c, np.eye(4))).T.flatten()
               for c in clump]
        doc['skins'].append(dict(joints=[idx[c] for c in clump],
                                 inverseBindMatrices=o.acc(
                                     ibm, 5126, 'MAT4')))
        nodes[0]['children'].append(len(nodes))
        nodes.append(dict(name=ccs.name(model), mesh=len(doc['meshes']),
                          skin=len(doc['skins']) - 1))
        doc['meshes'].append(dict(primitives=prims))
    doc['asset']['extras'] = dict(skin_vertices_disagreeing=disagree)
    anims = []
    for a in ccs.animes:
        samplers, channels = [], []

        def chan(node, path, times, vals, interp):
            samplers.append(dict(
                input=o.acc(np.array(times, float) / 30.0, 5126, 'SCALAR',
                            minmax=True),
                output=o.acc(vals, 5126, 'VEC4' if path == 'rotation'
                             else 'VEC3'), interpolation=interp))
            channels.append(dict(sampler=len(samplers) - 1,
                                 target=dict(node=node, path=path)))
        for obj, ctl in a['ctl'].items():
            tgt = ccs.ext.get(obj, obj)
            if tgt not in idx:
                continue
            for key, path in (('t', 'translation'), ('r', 'rotation'),
                              ('s', 'scale')):
                f = ctl.get(key)
                if f is None:
                    continue
                if f.const is not None:
                    v = euler_quat(f.const) if f.rot else f.const
                    chan(idx[tgt], path, [0], [v], 'LINEAR')
                else:
                    vs = [euler_quat(rounded(v)) if f.rot else v
                          for _, v in f.keys]
                    chan(idx[tgt], path, [k for k, _ in f.keys], vs, 'LINEAR')
        for obj, recs in a['fobj'].items():
            tgt = ccs.ext.get(obj, obj)
            if tgt not in idx:
                continue
            times = [r[0] for r in recs]
            chan(idx[tgt], 'translation', times, [r[1] for r in recs], 'STEP')
            chan(idx[tgt], 'rotation', times,
                 [euler_quat(r[2]) for r in recs], 'STEP')
            chan(idx[tgt], 'scale', times, [r[3] for r in recs], 'STEP')
        if channels:
            anims.append(dict(name=ccs.name(a['object']), samplers=samplers,
                              channels=channels))
    if anims:
        doc['animations'] = anims
    for k in ('meshes', 'skins'):
        if not doc[k]:
            del doc[k]
    o.bin += b'\0' * (-len(o.bin) % 4)
    doc['buffers'] = [dict(byteLength=len(o.bin))]
    js = json.dumps(doc, default=lambda x: x.item()).encode()
    js += b' ' * (-len(js) % 4)
    with open(dst, 'wb') as f:
        f.write(struct.pack('<4sII', b'glTF', 2, 28 + len(js) + len(o.bin)))
        f.write(struct.pack('<II', len(js), 0x4E4F534A) + js)
        f.write(struct.pack('<II', len(o.bin), 0x004E4942) + bytes(o.bin))


if __name__ == '__main__':
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
