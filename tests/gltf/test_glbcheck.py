#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""test_glbcheck.py - glbcheck.py's glTF reader on a GLB made here, whose
sampled values are worked out by hand: one joint, one animation, one
skinned triangle under a Z-up root; and its CCSF reader on a CCSF file
made here, with object controllers whose pose at a frame is known;
morph targets and their weights on both sides.
TAP output.

    test_glbcheck.py [OUT.glb]      OUT.glb: also keep the file made
"""
import json
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glbcheck  # noqa: E402

H = math.sqrt(0.5)


def make_glb():
    """The GLB, bytes.  Accessors of several kinds on purpose: floats,
    u8 joints in a strided view, normalized u8 weights, normalized s16."""
    bin_, views, accs = bytearray(), [], []

    def view(data, stride=None, target=None):
        while len(bin_) % 4:
            bin_.append(0)
        v = dict(buffer=0, byteOffset=len(bin_), byteLength=len(data))
        if stride:
            v['byteStride'] = stride
        if target:
            v['target'] = target
        bin_.extend(data)
        views.append(v)
        return len(views) - 1

    def acc(v, ctype, typ, count, **kw):
        accs.append(dict(bufferView=v, componentType=ctype, type=typ,
                         count=count, **kw))
        return len(accs) - 1

    f32 = lambda vals: struct.pack('<%df' % len(vals), *vals)
    pos = [1, 0, 0, 2, 0, 0, 1, 1, 0]
    a_pos = acc(view(f32(pos), target=34962), 5126, 'VEC3', 3,
                min=[1, 0, 0], max=[2, 1, 0])
    # joints: 4 u8, then 4 bytes of padding (byteStride 8)
    jv = view(b''.join(bytes([0, 0, 0, 0, 9, 9, 9, 9]) for _ in range(3)),
              stride=8, target=34962)
    a_j = acc(jv, 5121, 'VEC4', 3)
    a_w = acc(view(bytes([255, 0, 0, 0] * 3), target=34962), 5121, 'VEC4',
              3, normalized=True)
    ibm = np.eye(4)
    ibm[0, 3] = -1                      # inverse of the joint at (1, 0, 0)
    a_ibm = acc(view(f32(list(ibm.T.flatten()))), 5126, 'MAT4', 1)
    a_t = acc(view(f32([0, 1])), 5126, 'SCALAR', 2, min=[0], max=[1])
    a_tr = acc(view(f32([1, 0, 0, 3, 0, 0])), 5126, 'VEC3', 2)
    a_rot = acc(view(f32([0, 0, 0, 1, 0, 0, H, H])), 5126, 'VEC4', 2)
    a_sc = acc(view(f32([1, 1, 1, 2, 2, 2])), 5126, 'VEC3', 2)
    a_s16 = acc(view(struct.pack('<2h', 32767, -32768)), 5122, 'SCALAR', 2,
                normalized=True)
    doc = dict(
        asset=dict(version='2.0', generator='test_glbcheck.py',
                   extras=dict(skin_vertices_disagreeing=0)),
        scene=0, scenes=[dict(nodes=[0])],
        nodes=[dict(name='Z-up', rotation=[-H, 0, 0, H], children=[1, 2]),
               dict(name='J', translation=[1, 0, 0]),
               dict(name='M', mesh=0, skin=0)],
        meshes=[dict(primitives=[dict(attributes=dict(
            POSITION=a_pos, JOINTS_0=a_j, WEIGHTS_0=a_w))])],
        skins=[dict(joints=[1], inverseBindMatrices=a_ibm)],
        animations=[dict(name='ANM_t', samplers=[
            dict(input=a_t, output=a_tr, interpolation='LINEAR'),
            dict(input=a_t, output=a_rot, interpolation='LINEAR'),
            dict(input=a_t, output=a_sc, interpolation='STEP')],
            channels=[dict(sampler=k, target=dict(node=1, path=p))
                      for k, p in enumerate(('translation', 'rotation',
                                             'scale'))])],
        accessors=accs, bufferViews=views,
        buffers=[dict(byteLength=len(bin_))])
    doc['extras'] = dict(normalized_s16=a_s16)
    js = json.dumps(doc).encode()
    js += b' ' * (-len(js) % 4)
    bin_ += b'\0' * (-len(bin_) % 4)
    out = struct.pack('<4sII', b'glTF', 2, 12 + 8 + len(js) + 8 + len(bin_))
    out += struct.pack('<II', len(js), 0x4E4F534A) + js
    out += struct.pack('<II', len(bin_), 0x004E4942) + bytes(bin_)
    return out


n = 0
failed = 0


def check(desc, got, want, tol=1e-6):
    global n, failed
    n += 1
    got, want = np.asarray(got, float), np.asarray(want, float)
    if got.shape == want.shape and np.allclose(got, want, atol=tol):
        print('ok %d - %s' % (n, desc))
    else:
        failed += 1
        print('not ok %d - %s' % (n, desc))
        print('#   expected %s\n#   got      %s' % (want.tolist(), got.tolist()))


data = make_glb()
if len(sys.argv) > 1:
    open(sys.argv[1], 'wb').write(data)
g = glbcheck.Glb(data)

check('float VEC3 accessor', g.accessor(0), [[1, 0, 0], [2, 0, 0], [1, 1, 0]])
check('u8 joints in a view of byteStride 8', g.accessor(1), np.zeros((3, 4)))
check('normalized u8 weights', g.accessor(2)[:, 0], [1, 1, 1])
check('normalized s16: 32767 is 1, -32768 is -1', g.accessor(g.json['extras']['normalized_s16'])[:, 0], [1, -1])

s = g.sample(0, 0.5)[1]
check('LINEAR translation at the middle', s['translation'], [2, 0, 0])
check('LINEAR rotation slerps: 45 degrees about Z',
      s['rotation'], [0, 0, math.sin(math.pi / 8), math.cos(math.pi / 8)])
check('STEP scale holds the first key', s['scale'], [1, 1, 1])
s = g.sample(0, 1.5)[1]
check('after the last key, the last value', s['translation'], [3, 0, 0])
check('STEP after the last key', s['scale'], [2, 2, 2])
check('before the first key, the first value',
      g.sample(0, -1)[1]['translation'], [1, 0, 0])

w = g.worlds(None)
check('root turns game Z up to glTF Y up', w[0] @ [0, 0, 1, 0], [0, 1, 0, 0])
check('joint world at rest', w[1][:3, 3], [1, 0, -0])
check('skinned at rest: the positions, turned',
      g.mesh_world_positions(2, w), [[1, 0, 0], [2, 0, 0], [1, 0, -1]])
w = g.worlds(0, 0.5)
c = math.sqrt(0.5)
# joint: T(2,0,0) Rz(45); p - (1,0,0) turned 45 degrees, then Rx(-90)
check('skinned at t = 0.5', g.mesh_world_positions(2, w),
      [[2, 0, 0], [2 + c, 0, -c], [2 - c, 0, -c]])

# The game side's pieces: rounding, Rx*Ry*Rz order, keyed slerp.
check('key rounding: s16(int(deg * 182.044)) / 65536 turn',
      glbcheck.rounded([90.0, 180.0, -45.0]),
      [16383 * 360 / 65536, 32767 * 360 / 65536, -8191 * 360 / 65536])
q = glbcheck.euler_quat([30, 40, 50])
m = glbcheck.rx(30) @ glbcheck.ry(40) @ glbcheck.rz(50)
check('euler_quat is the quaternion of Rx * Ry * Rz',
      glbcheck.quat_mat(q), m[:3, :3])
fld = glbcheck.Field(keys=[(0, [0, 0, 0]), (10, [0, 0, 90])], rot=True)
check('keyed rotation: slerp of the rounded keys at frame 5',
      fld.at(5), glbcheck.slerp(glbcheck.euler_quat([0, 0, 0]),
                                glbcheck.euler_quat(glbcheck.rounded([0, 0, 90])),
                                0.5))
fld = glbcheck.Field(keys=[(0, [0, 0, 0]), (10, [10, 20, 30])])
check('keyed position: linear, clamped', [fld.at(5), fld.at(50)],
      [[5, 10, 15], [10, 20, 30]])


def chunk(kind, payload, tag=0xcccc):
    payload += b'\0' * (-len(payload) % 4)
    return struct.pack('<HHI', kind, tag, len(payload) // 4) + payload


def make_ccs():
    """A CCSF file: OBJ_b below OBJ_a, and an Anime chunk whose object
    controllers key OBJ_a's position (frames 0 and 10), keep its
    rotation constant (0, 0, 90), and set OBJ_b's position."""
    hdr = b'CCSF' + b't'.ljust(32, b'\0') + struct.pack('<HHIII', 0x100, 0,
                                                       1, 1, 0)
    names = [b'', b'OBJ_a', b'OBJ_b', b'ANM_x']
    idx = struct.pack('<II', 1, len(names)) + b'\0' * 32 + b''.join(
        nm.ljust(30, b'\0') + struct.pack('<H', 0) for nm in names)
    f3 = lambda *v: struct.pack('<3f', *v)
    ctl_a = (struct.pack('<II', 1, 2 | 1 << 3) +            # keyed, constant
             struct.pack('<I', 2) + struct.pack('<I', 0) + f3(0, 0, 0) +
             struct.pack('<I', 10) + f3(10, 0, 0) + f3(0, 0, 90))
    ctl_b = struct.pack('<II', 2, 1) + f3(1, 0, 0)
    body = (chunk(0xff01, struct.pack('<I', 0)) + chunk(0x0102, ctl_a) +
            chunk(0x0102, ctl_b) + chunk(0xff01, struct.pack('<I', 0xffffffff)))
    anime = struct.pack('<III', 3, 11, len(body) // 4) + body
    return (chunk(1, hdr) + chunk(2, idx) +
            chunk(0x100, struct.pack('<III', 1, 0, 0)) +
            chunk(0x100, struct.pack('<III', 2, 1, 0)) +
            chunk(0x700, anime) + chunk(5, struct.pack('<I', 1)) +
            chunk(0xff01, struct.pack('<I', 0xffffffff)))


ccs = glbcheck.Ccs(make_ccs())
check('CCSF: names, Obj parents, one Anime chunk of 11 frames',
      [len(ccs.names), ccs.objs[2][0], len(ccs.animes), ccs.animes[0]['frames']],
      [4, 1, 1, 11])
w = ccs.world(ccs.animes[0], 5)
check('game pose at frame 5: OBJ_a at T(5, 0, 0) Rz(90)', w[1],
      glbcheck.trs([5, 0, 0], [0, 0, H, H], [1, 1, 1]))
check('game pose at frame 5: OBJ_b = parent * T(1, 0, 0)', w[2][:3, 3],
      [5, 1, 0])
check('game pose past the last key holds it', ccs.world(ccs.animes[0], 30)[1][:3, 3],
      [10, 0, 0])


def make_morph_glb():
    """A triangle with two morph targets (mesh weights 0.25, 0) and a STEP
    weights channel: (0, 0) at 0 s, (1, 0.5) at 1 s."""
    bin_, views, accs = bytearray(), [], []

    def acc(vals, typ, count, **kw):
        views.append(dict(buffer=0, byteOffset=len(bin_),
                          byteLength=4 * len(vals)))
        bin_.extend(struct.pack('<%df' % len(vals), *vals))
        accs.append(dict(bufferView=len(views) - 1, componentType=5126,
                         type=typ, count=count, **kw))
        return len(accs) - 1
    pos = acc([0, 0, 0, 1, 0, 0, 0, 1, 0], 'VEC3', 3)
    up = acc([0, 0, 1] * 3, 'VEC3', 3)
    out = acc([1, 0, 0, 2, 0, 0, 3, 0, 0], 'VEC3', 3)
    t = acc([0, 1], 'SCALAR', 2)
    w = acc([0, 0, 1, 0.5], 'SCALAR', 4)
    doc = dict(
        asset=dict(version='2.0'), scene=0, scenes=[dict(nodes=[0])],
        nodes=[dict(name='M', mesh=0)],
        meshes=[dict(primitives=[dict(attributes=dict(POSITION=pos),
                                      targets=[dict(POSITION=up),
                                               dict(POSITION=out)])],
                     weights=[0.25, 0])],
        animations=[dict(samplers=[dict(input=t, output=w,
                                        interpolation='STEP')],
                         channels=[dict(sampler=0, target=dict(
                             node=0, path='weights'))])],
        accessors=accs, bufferViews=views,
        buffers=[dict(byteLength=len(bin_))])
    js = json.dumps(doc).encode()
    js += b' ' * (-len(js) % 4)
    out = struct.pack('<4sII', b'glTF', 2, 12 + 8 + len(js) + 8 + len(bin_))
    out += struct.pack('<II', len(js), 0x4E4F534A) + js
    return out + struct.pack('<II', len(bin_), 0x004E4942) + bytes(bin_)


g = glbcheck.Glb(make_morph_glb())
check('morph: default weights are the mesh\'s', g.default_weights(0),
      [0.25, 0])
check('morph: STEP weights hold the first key until the second',
      g.sample_weights(0, 0.5)[0], [0, 0])
check('morph: STEP weights at the second key', g.sample_weights(0, 1)[0],
      [1, 0.5])
check('morph: positions plus the weighted target deltas',
      g.mesh_world_positions(0, g.worlds(None), [1, 0.5]),
      [[0.5, 0, 1], [2, 0, 1], [1.5, 1, 1]])


def model_chunk(obj, mtype, pos):
    """A one-mmat rigid model of mtype 0x600 or 0x601 (normals only),
    vertex scale 4096: positions are the s16 values."""
    body = struct.pack('<IfHH', obj, 4096.0, mtype, 1) + b'\0' * 8
    body += struct.pack('<III', 0, 0, len(pos))
    raw = b''.join(struct.pack('<3h', *v) for v in pos)
    body += raw + b'\0' * (-len(raw) % 4) + struct.pack('<I', 1 << 24) * len(pos)
    return chunk(0x800, body)


def make_morph_ccs():
    """OBJ_m carries MDL_base; MPH_m morphs it toward MDL_t1 and MDL_t2
    (MDL_bad has a vertex too few); F_Morpher: t1 0.5 and bad 1 at frame
    0, t2 1 at frame 5."""
    hdr = b'CCSF' + b't'.ljust(32, b'\0') + struct.pack('<HHIII', 0x100, 0,
                                                       1, 1, 0)
    names = [b'', b'OBJ_m', b'MDL_base', b'MDL_t1', b'MDL_t2', b'MDL_bad',
             b'MPH_m', b'ANM_m']
    idx = struct.pack('<II', 1, len(names)) + b'\0' * 32 + b''.join(
        nm.ljust(30, b'\0') + struct.pack('<H', 0) for nm in names)
    base = [(0, 0, 0), (4, 0, 0), (0, 4, 0)]
    f_m = lambda *pairs: chunk(0x1901, struct.pack('<IHH', 6, len(pairs), 0) +
                               b''.join(struct.pack('<If', *p) for p in pairs))
    body = (chunk(0xff01, struct.pack('<I', 0)) + f_m((3, 0.5), (5, 1.0)) +
            chunk(0xff01, struct.pack('<I', 5)) + f_m((4, 1.0)) +
            chunk(0xff01, struct.pack('<I', 0xffffffff)))
    anime = struct.pack('<III', 7, 10, len(body) // 4) + body
    return (chunk(1, hdr) + chunk(2, idx) +
            model_chunk(2, 0x601, base) +
            model_chunk(3, 0x600, [(x, y, z + 2) for x, y, z in base]) +
            model_chunk(4, 0x601, [(2 * x, y, z) for x, y, z in base]) +
            model_chunk(5, 0x600, base[:2]) +
            chunk(0x1900, struct.pack('<II', 6, 2)) +
            chunk(0x100, struct.pack('<III', 1, 0, 2)) +
            chunk(0x700, anime) + chunk(5, struct.pack('<I', 1)) +
            chunk(0xff01, struct.pack('<I', 0xffffffff)))


ccs = glbcheck.Ccs(make_morph_ccs())
check('CCSF: the morpher\'s fitting targets, first named first',
      ccs.morph_of(2)[1], [3, 4])
a = ccs.animes[0]
check('CCSF: F_Morpher weights at frame 3 (t1 0.5, t2 not named: 0)',
      [ccs.morph_weights(a, 3, 2)[t] for t in (3, 4)], [0.5, 0])
check('CCSF: the record at frame 5 holds from there',
      [ccs.morph_weights(a, 9, 2)[t] for t in (3, 4)], [0, 1])
check('CCSF: morphed positions at frame 3: z up by 0.5 * 2',
      ccs.model_world(2, 1, ccs.world(a, 3), ccs.morph_weights(a, 3, 2))[0],
      [[0, 0, 1], [4, 0, 1], [0, 4, 1]])
print('1..%d' % n)
sys.exit(1 if failed else 0)
