#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cutcheck.py - a cutscene's scene.glb checked against its frame section.

    cutcheck.py SCENE.glb SCENE.ccs SETUP.ccs [COMMON.ccs ...]
                [--frames a,b,c] [--tol 1e-3] [--require NAME ...]
                [--fov-changes]

Reads the scene file's frame section itself (Top, F_Obj and F_Camera
records, FORMATS.md "Animation") and the Obj chunks of the setup file and
of the common setup files given (an object is the first file's that
defines it by name, as the tree's links say), then at each frame
(default: the first, middle and last) compares every node of the GLB
that an F_Obj record names, and the camera node, with where the records
put them:

- an object a setup file defines must be a node, with a mesh named after
  its Obj chunk's model when it has one; a parent its file defines but
  the scene file does not name stands still at the identity (it is not
  in the GLB);
- an object's world = R_x(-90) * parent world * T * Rx * Ry * Rz * S, its
  latest record at or before the frame holding (a record holds until the
  next); before its first record, or while its transparency is 0 or its
  flags' bit 0 is clear, it is hidden: its world matrix scales to 0;
- the camera's world = R_x(-90) * T * Rz * Ry * Rx (the game's view
  matrix has a half turn about X more, from its +Z-forward, +Y-down
  view space to glTF's camera, which looks down -Z with +Y up), each
  F_Camera field keeping its value until a record carries a new one;
- the camera's yfov (its KHR_animation_pointer channel's STEP value at
  the frame, else the camera's own) = 2 atan(tan(fov / 2) / (4 / 3))
  of the latest fov a record carries (before the first, the first's;
  45 degrees when none does); --fov-changes: fail unless it differs
  between the frames compared;
- the animation lasts the Frame chunk's count / 30 s, and the asset's
  extras name audio.wav when the scene file has sound;
- a scene file in the game's layout (its own Clump chunks list Obj or
  ExtObj chunks of its own: FORMATS.md, "Cutscenes: how the game builds
  the scene") is checked by those rules instead: its nodes are the
  clumps' (ordered by the clumps' objects), each followed through its
  ExtObj targets and the '#' entries (the first other file given that
  defines the name) to the Obj that gives its model, left out when the
  chain ends nowhere or goes round, or the model is a shadow model; a
  node whose model is a bone or skin model holds it posed at frame 0 by
  the Anime chunk that drives its owner's clump in its own file, its
  vertices in the node's space; a node's parent is the node its own parent field names; its world =
  R_x(-90) * parent world * T * Rx * Ry * Rz * S; it is hidden before
  its first record, while its flags' bit 0 is clear, while its
  transparency (clamped to 0..1, times its parent's when its Obj2 flags
  bit 0 say so) is at or below 1/128, and when its Obj2 flags bit 1 is
  set and it sits at the origin; a hidden node still places its
  children; the camera is the scene file's first Camera chunk in object
  order, the only one in the GLB; each light the F_DistantLight and
  F_OmniLight records name is a KHR_lights_punctual light on a node of
  its name: a point light at the record's position, its range the far
  end, or a directional light turned Rx * Ry * Rz, with the record's
  colour and intensity (through KHR_animation_pointer where they
  change);
- each --require NAME was compared, with its mesh, at every frame.

Exit 0 when all agree, 1 on a mismatch (each printed), 2 on a bad file.
Only Python 3 and numpy, and gltfread.py / ccsread.py, which share
nothing with ccsfs.
"""
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ccsread import Ccs, rx, ry, rz  # noqa: E402
from gltfread import Glb  # noqa: E402

TOP, F_OBJ, F_CAMERA, FRAME = 0xff01, 0x0101, 0x0502, 0x0005


def frame_records(ccs):
    """count, {object: [(frame, t, r, s, shown)]}, [(frame, values)]."""
    d = ccs.d
    count, frame, in_frames = 0, None, False
    objs, cams = {}, []
    for kind, p, end in ccs.chunks():
        if kind == FRAME and not in_frames:
            count, in_frames = struct.unpack_from('<I', d, p)[0], True
        elif not in_frames:
            continue
        elif kind == TOP:
            frame = struct.unpack_from('<I', d, p)[0]
        elif kind == F_OBJ and frame is not None and end - p >= 52:
            v = struct.unpack_from('<II10fI', d, p)
            shown = v[11] > 0 and v[12] & 1
            objs.setdefault(v[0], []).append(
                (frame, v[2:5], v[5:8], v[8:11], shown, v[11], v[12]))
        elif kind == F_CAMERA and frame is not None:
            obj, flag = struct.unpack_from('<II', d, p)
            vals, q = {}, p + 8
            for k in range(8):
                if flag & 1 or flag & (2 << k):
                    continue
                vals[k] = struct.unpack_from('<f', d, q)[0]
                q += 4
            cams.append((frame, obj, vals))
    return count, objs, cams


def latest(records, f):
    """The last record at or before frame f (of two at one frame, the
    later), or None."""
    best = None
    for r in records:
        if r[0] <= f:
            best = r
    return best


def scale(s):
    return np.diag([s[0], s[1], s[2], 1.0])


def translate(t):
    m = np.eye(4)
    m[:3, 3] = t
    return m


def object_local(records, f):
    r = latest(records, f) if records else None
    if r is None:
        return None                 # no record yet: hidden
    _, t, rot, s, shown = r[:5]
    if not shown:
        return scale((0, 0, 0))     # hidden
    return translate(t) @ rx(rot[0]) @ ry(rot[1]) @ rz(rot[2]) @ scale(s)


def camera_world(cams, obj, f):
    v = [0.0] * 8
    v[7] = 45.0
    seen = False
    for frame, o, vals in cams:
        if o == obj and frame <= f and vals:
            for k, x in vals.items():
                v[k] = x
            seen = True
    if not seen:
        return None
    return rx(-90) @ translate(v[:3]) @ rz(v[5]) @ ry(v[4]) @ rx(v[3])


def camera_fov(cams, obj, f):
    """The full horizontal fov (degrees) the records give at frame f:
    the latest that carries one, before it the first; 45 without."""
    fovs = [(frame, vals[7]) for frame, o, vals in cams
            if o == obj and 7 in vals]
    if not fovs:
        return 45.0
    at = [v for frame, v in fovs if frame <= f]
    return at[-1] if at else fovs[0][1]


def yfov_of(hfov):
    if not 0 < hfov < 180:
        hfov = 45.0
    return 2 * math.atan(math.tan(math.radians(hfov) / 2) / (4.0 / 3.0))


def gltf_yfov(glb, cam, t):
    """Camera cam's yfov at time t: its pointer channel's STEP value, or
    the camera's own."""
    ptr = '/cameras/%d/perspective/yfov' % cam
    got, animated = pointer_value(glb, ptr, t)
    if got is not None:
        return float(got[0]), animated
    return glb.json['cameras'][cam]['perspective']['yfov'], False


def pointer_value(glb, ptr, t):
    """(the STEP value at time t of the KHR_animation_pointer channel on
    ptr, True), or (None, False) without one."""
    for a in glb.json.get('animations', []):
        for c in a['channels']:
            ext = c['target'].get('extensions', {}).get(
                'KHR_animation_pointer', {})
            if c['target'].get('path') != 'pointer' or ext.get('pointer') != ptr:
                continue
            s = a['samplers'][c['sampler']]
            times = glb.accessor(s['input'])[:, 0]
            vals = glb.accessor(s['output'])
            i = int(np.searchsorted(times, t + 1e-6, side='right')) - 1
            return vals[max(i, 0)], True
    return None, False


F_DISTANT, F_OMNI = 0x0602, 0x0608


def light_records(ccs):
    """{light object: [(frame, state)]} of the F_DistantLight and
    F_OmniLight records (FORMATS.md, Cutscenes: Lights), each state what
    the record carries over the light's state before: 'kind', 'pos' or
    'rot', 'colour' (R the low byte, / 255), 'intensity' (a distant
    light's only with flag 0x20; 1 before any), 'far' (an omni light's
    far end)."""
    d, frame, in_frames, out = ccs.d, None, False, {}
    for kind, p, end in ccs.chunks():
        if kind == FRAME and not in_frames:
            in_frames = True
        elif not in_frames:
            continue
        elif kind == TOP:
            frame = struct.unpack_from('<I', d, p)[0]
        elif kind in (F_DISTANT, F_OMNI) and frame is not None and \
                end - p >= (36 if kind == F_OMNI else 24):
            obj, flag = struct.unpack_from('<II', d, p)
            v = struct.unpack_from('<3f', d, p + 8)
            rgb = struct.unpack_from('<I', d, p + 20)[0]
            recs = out.setdefault(obj, [])
            st = dict(recs[-1][1]) if recs else {'intensity': 1.0}
            st['kind'] = kind
            st['pos' if kind == F_OMNI else 'rot'] = v
            st['colour'] = [(rgb >> (8 * i) & 0xff) / 255.0 for i in range(3)]
            if kind == F_OMNI:
                st['intensity'], _, st['far'] = struct.unpack_from(
                    '<3f', d, p + 24)
            elif flag & 0x20 and end - p >= 28:
                st['intensity'] = struct.unpack_from('<f', d, p + 24)[0]
            if recs and recs[-1][0] == frame:
                recs.pop()
            recs.append((frame, st))
    return out


def check_lights(glb, scene, frames, tol):
    """Each light of the records is a KHR_lights_punctual light on a node
    of its name: an omni light a point light at its position (range its
    far end), a distant one a directional light turned Rx * Ry * Rz,
    colour and intensity through their pointer channels.  Returns
    (lights, failures)."""
    lights = glb.json.get('extensions', {}).get(
        'KHR_lights_punctual', {}).get('lights', [])
    node_of = {n.get('name'): i for i, n in enumerate(glb.nodes)}
    recs, bad = light_records(scene), 0
    for obj, rs in sorted(recs.items()):
        nm = scene.name(obj)
        ext = glb.nodes[node_of[nm]].get('extensions', {}) \
            if nm in node_of else {}
        li = ext.get('KHR_lights_punctual', {}).get('light')
        if li is None:
            print('FAIL light %s: no node with a light' % nm)
            bad += 1
            continue
        light = lights[li]
        omni = rs[0][1]['kind'] == F_OMNI
        if light.get('type') != ('point' if omni else 'directional'):
            print('FAIL light %s is %s' % (nm, light.get('type')))
            bad += 1
        for f in frames:
            st = ([r for fr, r in rs if fr <= f] or [rs[0][1]])[-1]
            w = glb.worlds(0, f / 30.0)[node_of[nm]]
            base = '/extensions/KHR_lights_punctual/lights/%d/' % li
            got = {}
            for key, own in (('color', light['color']),
                             ('intensity', [light['intensity']]),
                             ('range', [light.get('range', 0)])):
                v, _ = pointer_value(glb, base + key, f / 30.0)
                got[key] = list(v) if v is not None else own
            want = {'color': st['colour'], 'intensity': [st['intensity']],
                    'range': [st['far']] if omni else got['range']}
            if omni:
                ok = near(w[:3, 3], (rx(-90) @ np.append(st['pos'], 1))[:3],
                          tol)
            else:
                r = st['rot']
                ok = near(w[:3, :3], (rx(-90) @ rx(r[0]) @ ry(r[1]) @
                                      rz(r[2]))[:3, :3], tol)
            for key in want:
                ok &= near(np.array(got[key]), np.array(want[key]), tol)
            if not ok:
                print('FAIL light %s at frame %d: node\n%s\n%s, want %s' % (
                    nm, f, w, got, st))
                bad += 1
    return len(recs), bad


def check_fovs(glb, node_of, scene, cams, frames, want_changes):
    """Each camera's yfov at each frame against its records; returns the
    failures."""
    bad = 0
    for obj in sorted({o for _, o, _ in cams}):
        nm = scene.name(obj)
        cam = glb.nodes[node_of[nm]].get('camera') if nm in node_of else None
        if cam is None:
            continue
        seen, animated = [], False
        for f in frames:
            got, animated = gltf_yfov(glb, cam, f / 30.0)
            hfov = camera_fov(cams, obj, f)
            want = yfov_of(hfov)
            seen.append(got)
            if abs(got - want) > 1e-5:
                print('FAIL camera %s yfov at frame %d: %.6f, want %.6f '
                      '(fov %g)' % (nm, f, got, want, hfov))
                bad += 1
        print('camera %s: yfov at frames %s: %s (%s)' % (
            nm, ','.join(map(str, frames)),
            ', '.join('%.4f' % x for x in seen),
            'animated' if animated else 'fixed'))
        if want_changes and len(set(seen)) < 2:
            print('FAIL camera %s: the fov does not change' % nm)
            bad += 1
    return bad


def near(a, b, tol):
    return np.max(np.abs(a - b)) <= tol * max(1.0, np.max(np.abs(b)))


def definitions(setups):
    """{object name: (parent name, model name, the model's mmats)}, the
    first file's."""
    defs = {}
    for ccs in setups:
        for o, (parent, model) in ccs.objs.items():
            nm = ccs.name(o)
            if nm and nm not in defs:
                defs[nm] = (ccs.name(parent), ccs.name(model),
                            ccs.models.get(model, (0, []))[1])
    return defs


def same_positions(glb, mesh, mmats, tol):
    """A rigid model's mesh holds its mmats' positions, primitive for
    mmat (True when the model is not rigid: glbcheck.py's business)."""
    if not mmats or any(m[0] != 'rigid' for m in mmats):
        return True
    prims = mesh.get('primitives', [])
    if len(prims) != len(mmats):
        return False
    for prim, mm in zip(prims, mmats):
        got = glb.accessor(prim['attributes']['POSITION'])
        if got.shape != mm[1].shape or not near(got, mm[1], tol):
            return False
    return True


def check_meshes(glb, node_of, names, defs, tol):
    """Each defined object that the records name is a node with its
    model's mesh and vertices; returns the failures."""
    bad = 0
    meshes = glb.json.get('meshes', [])
    for nm in names:
        if nm not in defs:
            continue                # no file given defines it
        _, model, mmats = defs[nm]
        node = glb.nodes[node_of[nm]] if nm in node_of else None
        mesh = node.get('mesh') if node is not None else None
        got = meshes[mesh].get('name') if mesh is not None else None
        if node is None or (model and got != model):
            print('FAIL %s: %s, want a node with mesh %s' % (
                nm, 'no node' if node is None else 'mesh %s' % got, model))
            bad += 1
        elif mesh is not None and not same_positions(glb, meshes[mesh],
                                                     mmats, tol):
            print('FAIL %s: mesh %s is not %s\'s vertices' % (nm, got, model))
            bad += 1
    return bad


def check_extras(glb, scene, count):
    """The asset's extras: the frame count, and audio.wav when the scene
    file has sound (a Pcm or F_Pcm chunk)."""
    extras = glb.json['asset'].get('extras', {})
    sound = any(kind in (0x2200, 0x2201) for kind, _, _ in scene.chunks())
    if extras.get('frames') != count or \
            (extras.get('audio') == 'audio.wav') != sound:
        print('FAIL extras: %s' % extras)
        return False
    return True


# ---- the game's layout (FORMATS.md, "Cutscenes: how the game builds the
# scene"): the scene file's own Clump chunks list its nodes ----

def game_layout(scene):
    """Some Clump node of the scene file is one of its own Obj or ExtObj
    chunks."""
    return any(n in scene.objs or n in scene.ext
               for _, nodes in scene.clump_objs for n in nodes)


def defined_by_name(files, skip, name, want):
    """(file, object) of the first file but `skip` and the scene file
    (files[0]) whose object `name` is not '#' and has want(ccs, o)."""
    for k, ccs in enumerate(files):
        if k in (0, skip):
            continue
        for o, nm in enumerate(ccs.names):
            if o and nm == name and o not in ccs.marked and want(ccs, o):
                return k, o
    return None


def is_node(ccs, o):
    return o in ccs.objs or o in ccs.ext


def resolve(files, o):
    """Follows scene object o: an Obj gives the model, an ExtObj its
    target, a '#' entry the first other file that defines the name.
    Returns ((file, model) or None for no model, None) or (None, why)."""
    k, at, seen = 0, o, set()
    while (k, at) not in seen:
        seen.add((k, at))
        ccs = files[k]
        if at in ccs.objs:
            model = ccs.objs[at][1]
            if not model:
                return None, None
            if model in ccs.marked:
                return defined_by_name(files, k, ccs.name(model),
                                       lambda c, m: m in c.models), None
            return (k, model), None
        if at in ccs.ext:
            at = ccs.ext[at]
            continue
        d = defined_by_name(files, k, ccs.name(at), is_node) \
            if at in ccs.marked else None
        if d is None:
            return None, 'its target %s is defined nowhere' % ccs.name(at)
        k, at = d
    return None, 'its targets go round in a circle'


def game_nodes(scene, files):
    """[(object, (file, model) or None)] in the game's order (clumps by
    their objects, each node once), and {object: why} of those left out
    (no Obj at the end of the chain, or a shadow model)."""
    nodes, out, seen = [], {}, set()
    for _, lst in sorted(scene.clump_objs, key=lambda c: c[0]):
        for o in lst:
            if o in seen:
                continue
            seen.add(o)
            model, why = resolve(files, o)
            if why:
                out[o] = why
            elif model and files[model[0]].models.get(
                    model[1], (0, []))[0] & 8:
                out[o] = 'a shadow model'
            else:
                nodes.append((o, model))
    return nodes, out


def check_posed(glb, mesh, ccs, model, nm, tol):
    """A bone or skin model on a node of the game's layout: its mesh holds
    the model posed at frame 0 by the Anime chunk that drives its owner's
    clump in its own file (the model's vertices there, as model.obj
    places them).  1 when they differ."""
    owner = next((o for o, (_p, m) in sorted(ccs.objs.items())
                  if m == model), 0)
    clump = ccs.clump_of(owner) or ()
    anime = next((a for a in ccs.animes if any(
        o in a['ctl'] or o in a['fobj'] for o in clump)), None)
    want = ccs.model_world(model, owner, ccs.world(anime, 0))[0]
    got = [glb.accessor(p['attributes']['POSITION'])
           for p in mesh.get('primitives', [])]
    got = np.vstack(got) if got else np.zeros((0, 3))
    ok = got.shape == want.shape and (not len(want) or near(got, want, tol))
    print('%s: %s posed at frame 0 by %s: %d vertices%s' % (
        nm, ccs.name(model), ccs.name(anime['object']) if anime else
        'no Anime chunk', len(want), '' if ok else ' MISMATCH'))
    if not ok:
        print('FAIL %s: its mesh is not %s posed at frame 0' % (
            nm, ccs.name(model)))
    return int(not ok)


def game_local(recs, f):
    """(local matrix, transparency clamped, flags, position) of the
    latest record at or before f, or None before the first."""
    r = latest(recs, f) if recs else None
    if r is None:
        return None
    _, t, rot, sc, _, tp, flags = r
    tp = min(max(tp, 0.0), 1.0) if tp == tp else 0.0
    m = translate(t) @ rx(rot[0]) @ ry(rot[1]) @ rz(rot[2]) @ scale(sc)
    return m, tp, flags, tuple(t)


def game_check(glb, scene, setups, frames, tol, required, bad, count, objs,
               cams, end):
    files = [scene] + setups
    nodes, out = game_nodes(scene, files)
    node_of = {n.get('name'): i for i, n in enumerate(glb.nodes)}
    inside = {o for o, _ in nodes}
    parent = {}
    for o, _ in nodes:
        p = scene.objs[o][0] if o in scene.objs else scene.ext_parent.get(o, 0)
        parent[o] = p if p in inside else None
    meshes = glb.json.get('meshes', [])
    for o, model in nodes:
        nm = scene.name(o)
        node = glb.nodes[node_of[nm]] if nm in node_of else None
        want = files[model[0]].name(model[1]) if model else None
        got = node.get('mesh') if node is not None else None
        got = meshes[got].get('name') if got is not None else None
        if node is None or (want and got != want):
            print('FAIL node %s: %s, want a node with mesh %s' % (
                nm, 'none' if node is None else 'mesh %s' % got, want))
            bad += 1
        elif want and files[model[0]].models.get(model[1], (0,))[0] & 4:
            bad += check_posed(glb, meshes[node['mesh']], files[model[0]],
                               model[1], nm, tol)
    for o, why in sorted(out.items()):
        print('%s left out: %s' % (scene.name(o), why))
        if scene.name(o) in node_of:
            print('FAIL %s is in the GLB' % scene.name(o))
            bad += 1
    cam = min(scene.cameras) if scene.cameras else None
    cam_nodes = [n for n in glb.nodes if 'camera' in n]
    if (cam is not None) != (len(cam_nodes) == 1) or \
            (cam is not None and cam_nodes[0].get('name') != scene.name(cam)):
        print('FAIL cameras %s, want %s alone' % (
            [n.get('name') for n in cam_nodes], scene.name(cam)))
        bad += 1
    placed, compared = 0, {}
    for f in frames:
        world = glb.worlds(0, f / 30.0)
        memo = {}

        def place(o, depth=0):
            """(world, transparency, hidden) of node o at frame f."""
            if o in memo:
                return memo[o]
            rec = game_local(objs.get(o), f)
            up = parent[o] if depth < 64 else None
            pw, ptp, _ = place(up, depth + 1) if up else (np.eye(4), 1.0, False)
            if rec is None:
                memo[o] = (pw, 0.0, True)
                return memo[o]
            m, tp, flags, pos = rec
            if scene.obj2.get(o, 0) & 1:
                tp *= ptp
            hidden = not flags & 1 or tp <= 1 / 128.0 or \
                (scene.obj2.get(o, 0) & 2 and pos == (0.0, 0.0, 0.0))
            memo[o] = (pw @ m, tp, hidden)
            return memo[o]
        for o, model in nodes:
            nm = scene.name(o)
            if nm not in node_of:
                continue
            want, _, hidden = place(o)
            got = world[node_of[nm]]
            placed += 1
            if model:
                compared[nm] = compared.get(nm, 0) + 1
            ok = not got[:3, :3].any() if hidden else \
                near(got, rx(-90) @ want, tol)
            if not ok:
                print('FAIL %s at frame %d%s:\n%s\nwant\n%s' % (
                    nm, f, ' (hidden)' if hidden else '', got, rx(-90) @ want))
                bad += 1
        want = camera_world(cams, cam, f) if cam is not None else None
        if want is not None and scene.name(cam) in node_of:
            placed += 1
            if not near(world[node_of[scene.name(cam)]], want, tol):
                print('FAIL camera %s at frame %d' % (scene.name(cam), f))
                bad += 1
    nlights, lbad = check_lights(glb, scene, frames, tol)
    bad += lbad
    print('the game\'s layout: %d nodes, %d left out; %d placements at '
          'frames %s compared, %d wrong; %d lights; %d frames, %.3f s' % (
              len(nodes), len(out), placed, ','.join(map(str, frames)), bad,
              nlights, count, end))
    for nm in required:
        if compared.get(nm, 0) != len(frames):
            print('FAIL %s compared with its mesh at %d of %d frames' % (
                nm, compared.get(nm, 0), len(frames)))
            bad += 1
    return 1 if bad or not placed else 0


def check(glb, scene, setups, frames, tol, required, fov_changes=False):
    count, objs, cams = frame_records(scene)
    node_of = {n.get('name'): i for i, n in enumerate(glb.nodes)}
    anims = glb.json.get('animations', [])
    bad = 0
    if len(anims) != 1:
        print('FAIL %d animations, want 1' % len(anims))
        return 1
    a = anims[0]
    end = max(float(glb.accessor(s['input'])[:, 0].max())
              for s in a['samplers'])
    if abs(end - count / 30.0) > 1e-4:
        print('FAIL the animation lasts %.4f s, want %d / 30' % (end, count))
        bad += 1
    if not check_extras(glb, scene, count):
        bad += 1
    if game_layout(scene):
        return game_check(glb, scene, setups, frames, tol, required, bad,
                          count, objs, cams, end)
    defs = definitions(setups)
    parents = {nm: d[0] for nm, d in defs.items()}
    by_name = {scene.name(o): recs for o, recs in objs.items()}
    bad += check_meshes(glb, node_of, by_name, defs, tol)
    bad += check_fovs(glb, node_of, scene, cams, frames, fov_changes)
    placed = 0
    compared = {}
    for f in frames:
        world = glb.worlds(0, f / 30.0)
        local = {nm: object_local(recs, f) for nm, recs in by_name.items()}

        def want_world(nm, depth=0):
            """(the world below node 0, hidden by itself or a parent)."""
            m = local.get(nm, np.eye(4))
            hidden = nm in local and (m is None or not m[:3, :3].any())
            m = np.eye(4) if m is None else m
            up = parents.get(nm)
            if up and depth < 64:
                w, h = want_world(up, depth + 1)
                m, hidden = w @ m, hidden or h
            return m, hidden
        for nm in by_name:
            if nm not in node_of:
                continue            # no setup file defines it
            want, hidden = want_world(nm)
            got = world[node_of[nm]]
            placed += 1
            if glb.nodes[node_of[nm]].get('mesh') is not None:
                compared[nm] = compared.get(nm, 0) + 1
            # A hidden node's world scales to nothing; where it would be
            # is no one's business.
            ok = not got[:3, :3].any() if hidden else \
                near(got, rx(-90) @ want, tol)
            if not ok:
                print('FAIL %s at frame %d%s:\n%s\nwant\n%s' % (
                    nm, f, ' (hidden)' if hidden else '', got, rx(-90) @ want))
                bad += 1
        for obj in {o for _, o, _ in cams}:
            nm = scene.name(obj)
            want = camera_world(cams, obj, f)
            if nm not in node_of or want is None:
                continue
            placed += 1
            if not near(world[node_of[nm]], want, tol):
                print('FAIL camera %s at frame %d:\n%s\nwant\n%s' % (
                    nm, f, world[node_of[nm]], want))
                bad += 1
    print('%d placements at frames %s compared, %d wrong; %d frames, '
          '%.3f s' % (placed, ','.join(map(str, frames)), bad, count, end))
    if not placed:
        print('FAIL nothing to compare')
        bad += 1
    for nm in required:
        if compared.get(nm, 0) != len(frames):
            print('FAIL %s compared with its mesh at %d of %d frames' % (
                nm, compared.get(nm, 0), len(frames)))
            bad += 1
        else:
            print('%s: its mesh placed per its records at frames %s' % (
                nm, ','.join(map(str, frames))))
    return 1 if bad else 0


def main(argv):
    frames, tol, files, required, fov_changes = None, 1e-3, [], [], False
    it = iter(argv)
    for a in it:
        if a == '--frames':
            frames = [int(x) for x in next(it).split(',')]
        elif a == '--tol':
            tol = float(next(it))
        elif a == '--require':
            required.append(next(it))
        elif a == '--fov-changes':
            fov_changes = True
        else:
            files.append(a)
    if len(files) < 3:
        print(__doc__)
        return 2
    try:
        glb = Glb(open(files[0], 'rb').read())
        scene = Ccs(open(files[1], 'rb').read())
        setups = [Ccs(open(f, 'rb').read()) for f in files[2:]]
    except (OSError, ValueError, struct.error) as e:
        print('cutcheck: %s' % e)
        return 2
    if frames is None:
        count = frame_records(scene)[0]
        frames = [0, count // 2, max(count - 1, 0)]
    return check(glb, scene, setups, frames, tol, required, fov_changes)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
