#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""glbcheck.py - a scene.glb checked against the game's own pose.

    glbcheck.py SCENE.glb SOURCE.ccs [--frames 0,10,20] [--tol 1e-3]
                [--ignore-f-obj]
    glbcheck.py --info SOURCE.ccs [MDL_name]
    glbcheck.py --morph SOURCE.ccs

--info prints what the tests expect of a file, from the CCSF alone:
obj_chunks, clump_nodes (the largest clump), anime_frames (the first Anime
chunk), models; with a model's name, its frame-0 world positions as the
posed model.obj should hold them: vertices=N bbox=X0,Y0,Z0,X1,Y1,Z1.
--morph prints the shape keys Blender should make of the file's morph
targets and their values at frames, as blender_import.py expectations.

Two readers that share nothing with ccsfs: a glTF 2.0 binary reader
(gltfread.py: accessors, animation sampling, node world matrices,
skinning) and a CCSF reader (ccsread.py: Obj, Clump, ExtObj, Model and
Anime chunks) that poses the scene the way FORMATS.md says the game
does.  Every mesh of the GLB is put in
world space at each frame and compared with the game's world positions
of its model turned from Z-up to Y-up (R_x(-90) * game), a morph base's
vertices moved by its F_Morpher weights, which must be the GLB's
weights at that frame, target by target.  Exit 1 on
mismatches beyond the skin vertices whose entries disagree (which no
inverse bind matrix can follow once the joints move), 2 on a bad file.

Only Python 3 and numpy, so it runs wherever the test suite does.
"""
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the two readers; their names are glbcheck's too, for the tests
from ccsread import (Ccs, Field, apply, axis_quat, euler_quat,  # noqa: F401
                     qmul, rounded, rx, ry, rz)
from gltfread import Glb, quat_mat, sample_curve, slerp, trs  # noqa: F401


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


def morph_info(argv):
    """What Blender should show of the morph bases that have an owner:
    shape_keys=N shape_key_curves=N, then key=F,NAME,W for every target at
    each F_Morpher record's frame of the first Anime chunk and two frames
    after it (a record holds until the next)."""
    ccs = Ccs(open(argv[0], 'rb').read())
    placed = {m for _p, m in ccs.objs.values()}
    keys, curves, out = 0, 0, []
    anime = ccs.animes[0] if ccs.animes else None
    for mph, base in ccs.morphers:
        m = ccs.morph_of(base) if base in placed else None
        if not m or not m[1] or m[0] != mph:
            continue
        keys += len(m[1])
        recs = anime['morph'].get(mph, []) if anime else []
        curves += len(m[1]) if recs else 0
        for f in sorted({0} | {r[0] + d for r in recs for d in (0, 2)}):
            for t, w in ccs.morph_weights(anime, f, base).items():
                out.append('key=%d,%s,%g' % (f, ccs.name(t), w))
    print(' '.join(['shape_keys=%d' % keys, 'shape_key_curves=%d' % curves]
                   + out))
    return 0


def parse_args(argv):
    opt = dict(frames=[0, 10, 20], tol=1e-3, use_fobj=True, files=[])
    it = iter(argv)
    for a in it:
        if a == '--frames':
            opt['frames'] = [int(x) for x in next(it).split(',')]
        elif a == '--tol':
            opt['tol'] = float(next(it))
        elif a == '--ignore-f-obj':
            opt['use_fobj'] = False
        else:
            opt['files'].append(a)
    return opt


def runs(glb, ccs):
    """(glTF animation index, Anime chunk) pairs, matched by the ANM_
    object's name; a file without Anime chunks is checked at frame 0."""
    anims = glb.json.get('animations', [])
    out = []
    for a in ccs.animes:
        nm = ccs.name(a['object'])
        k = next((i for i, g in enumerate(anims) if g.get('name') == nm), None)
        if k is None:
            raise ValueError('no animation named %s' % nm)
        out.append((k, a))
    return out or [(None, None)]


def node_model(ccs, name):
    """(model, owner) a glTF mesh node stands for: a bone or skin model's
    node is named after the MDL_ object, a rigid mesh sits on its owner."""
    o = ccs.names.index(name) if name in ccs.names else None
    if o is None:
        return None, None
    if o in ccs.models:
        owner = next((ob for ob, (_p, m) in sorted(ccs.objs.items())
                      if m == o), 0)
        return o, owner
    return ccs.objs.get(o, (0, 0))[1], o


class Tally:
    def __init__(self):
        self.total = self.bad = 0
        self.disagree = -1      # counted at frame 0
        self.dis0 = {}          # vertices allowed to drift, by model


def check_weights(glb, ccs, i, game, wv, f):
    """Node i's morph weights wv against the game's {target: weight},
    target by target (by the mesh's targetNames); 1 when they differ."""
    mesh = glb.json['meshes'][glb.nodes[i]['mesh']]
    names = mesh.get('extras', {}).get('targetNames', [])
    if not game and not len(wv):
        return 0
    got = {}
    for nm, w in zip(names, wv):
        got[ccs.names.index(nm) if nm in ccs.names else nm] = float(w)
    bad = set(got) != set(game) or any(
        abs(got[t] - game[t]) > 1e-6 for t in game)
    show = lambda d: ' '.join('%s=%g' % (ccs.name(t) if isinstance(t, int)
                                         else t, w) for t, w in d.items())
    print('frame %d %s: morph weights %s (game: %s)%s' % (
        f, glb.nodes[i].get('name'), show(got) or '-', show(game) or '-',
        ' MISMATCH' if bad else ''))
    return int(bad)


def check_frame(glb, ccs, k, anime, f, opt, tally):
    up = rx(-90)        # game Z-up to glTF Y-up, as the root node turns it
    gw = glb.worlds(k, f / 30.0)
    ws = glb.sample_weights(k, f / 30.0)
    world = ccs.world(anime, f, opt['use_fobj'])
    disagree = 0
    for i, n in enumerate(glb.nodes):
        if 'mesh' not in n or i not in gw:
            continue
        model, owner = node_model(ccs, n.get('name'))
        if model not in ccs.models:
            print('node %d %r: no such object or model' % (i, n.get('name')))
            tally.bad += 1
            continue
        game = ccs.morph_weights(anime, f, model)
        wv = ws.get(i, glb.default_weights(i))
        tally.bad += check_weights(glb, ccs, i, game, wv, f)
        want, dis, noslot = ccs.model_world(model, owner, world, game)
        want = apply(up, want)
        disagree += dis
        if f == 0:
            tally.dis0[model] = dis + noslot
        got = glb.mesh_world_positions(i, gw, wv)
        size = float(np.ptp(want, axis=0).max()) if len(want) else 0
        tol = opt['tol'] * max(size, 1.0)
        miss, how = mismatches(got, want, tol)
        tally.total += len(want)
        print('frame %d %s: %d vertices, %d mismatches (%s, tol %.3g)%s' % (
            f, n['name'], len(want), miss, how, tol,
            ', %d vertices follow a slot past the clump' % noslot
            if noslot else ''))
        # skin vertices whose entries disagree follow no glTF joint once
        # the joints move, and a slot past the clump is anybody's guess:
        # both allowed after frame 0
        tally.bad += max(0, miss - (tally.dis0.get(model, 0) if f else 0))
    if f == 0:
        tally.disagree = disagree


def main(argv):
    if argv[:1] == ['--info']:
        return info(argv[1:])
    if argv[:1] == ['--morph']:
        return morph_info(argv[1:])
    opt = parse_args(argv)
    if len(opt['files']) != 2:
        print(__doc__.strip().split('\n\n')[0], file=sys.stderr)
        return 2
    path = opt['files'][0]
    glb = Glb(open(path, 'rb').read())
    ccs = Ccs(open(opt['files'][1], 'rb').read())
    extras = glb.json.get('asset', {}).get('extras', {})
    allowed = int(extras.get('skin_vertices_disagreeing', 0))
    tally = Tally()
    frames = sorted(set(opt['frames']) | {0})
    for k, anime in runs(glb, ccs):
        last = max(anime['frames'] - 1, 0) if anime else 0
        for f in sorted({min(f, last) for f in frames}):
            check_frame(glb, ccs, k, anime, f, opt, tally)
    if tally.disagree >= 0 and tally.disagree != allowed:
        print('skin vertices disagreeing: glb says %d, counted %d'
              % (allowed, tally.disagree))
        tally.bad += 1
    print('%s: %d vertices compared, %d mismatches'
          % (path, tally.total, tally.bad))
    return 1 if tally.bad else 0


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except (ValueError, KeyError, IndexError, struct.error) as e:
        print('glbcheck: %s' % e, file=sys.stderr)
        sys.exit(2)
