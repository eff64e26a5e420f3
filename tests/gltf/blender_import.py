# SPDX-License-Identifier: MIT
"""blender_import.py - a GLB (or an OBJ) imported by Blender's own
importer, what it made printed and checked.

    blender -b --factory-startup --python tests/gltf/blender_import.py -- \
        FILE.glb [EXPECTATION...]
    blender -b --factory-startup --python tests/gltf/blender_import.py -- \
        --obj FILE.obj [vertices=N] [bbox=X0,Y0,Z0,X1,Y1,Z1]

Expectations (all optional; NAME=N exact, NAME=N+ at least N, a form
that needs no quoting in a shell):
    meshes  mesh objects         vertices  their vertices, summed
    armatures                    bones     bones of all armatures
    images  images that load with a size above 0
    actions                      cameras   camera objects
    lights  light objects
    shape_keys  shape keys of all meshes, the basis not counted
    shape_key_curves  shape keys an action animates (a curve each)
    action_frames=N  some action spans N game frames: (N - 1) / 30 s,
                     give or take a Blender frame (Blender runs at 24 fps:
                     30 game frames = 1 s = 24 Blender frames)
    bbox=...         OBJ only: the mesh's bounding box, to 1e-3 of its size
    key=F,NAME,V     shape key NAME's value at game frame F is V
    span_frames=N    some action spans N game frames: N / 30 s, give or
                     take a Blender frame (a cutscene's whole length)
    camera_at=F,X,Y,Z,RX,RY,RZ  at game frame F the first camera sits at
                     (X, Y, Z) of the game's Z-up axes (Blender's too)
                     and turns as Rz * Ry * Rx (degrees), as an
                     F_Camera record places it: Blender's camera, like
                     glTF's, looks down its -Z with +Y up, and the
                     game's view space (+Z forward, +Y down) is that
                     turned half round about X
    object_at=F,NAME,X,Y,Z  at game frame F the mesh (or light) object
                     NAME sits at (X, Y, Z) of the game's Z-up axes,
                     shown (a scale above 0)
    hidden_at=F,NAME  at game frame F the mesh object NAME is hidden (a
                     scale of 0)
    sees=F,NAME,X,Y,Z,RX,RY,RZ,FOV  rendered at game frame F through the
                     first camera, with NAME the only thing drawn, the
                     picture shows NAME where the game's own camera puts
                     it: the camera of an F_Camera record (position,
                     angles, full horizontal fov, all in degrees) whose
                     view space is the PS2's, +X right, +Y down, +Z
                     forward, world to view = inverse(T * Rz * Ry * Rx *
                     Rx(180)); NAME's bounding box's centre, projected
                     so onto a 4:3 picture, lies within the lit pixels'
                     box (a pixel's slack)

Exits 0 when every expectation holds, 1 when one fails, 2 when the
import itself fails.  Blender swallows exceptions and sys.exit from a
--python script, hence os._exit after a flush.
"""
import math
import os
import sys

import warnings

import numpy
# Debian 12's numpy 1.24 dropped numpy.bool, which Blender 3.4's glTF
# add-on still uses: alias it before the add-on is imported.  (Asking
# for it warns on 1.24, hence the quiet look.)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    if not hasattr(numpy, 'bool'):
        numpy.bool = numpy.bool_

import bpy  # noqa: E402


def finish(code):
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def counts():
    objs = list(bpy.context.scene.objects)
    meshes = [o for o in objs if o.type == 'MESH']
    arms = [o for o in objs if o.type == 'ARMATURE']
    c = dict(meshes=len(meshes),
             vertices=sum(len(o.data.vertices) for o in meshes),
             armatures=len(arms),
             bones=sum(len(o.data.bones) for o in arms),
             cameras=sum(1 for o in objs if o.type == 'CAMERA'),
             lights=sum(1 for o in objs if o.type == 'LIGHT'),
             actions=len(bpy.data.actions))
    for o in meshes:
        print('mesh %s: %d vertices, %d faces' % (o.name, len(o.data.vertices),
                                                  len(o.data.polygons)))
    keys, curves = 0, 0
    for o in meshes:
        sk = o.data.shape_keys
        if not sk:
            continue
        names = [k.name for k in sk.key_blocks[1:]]     # [0] is the basis
        keys += len(names)
        act = sk.animation_data.action if sk.animation_data else None
        animated = sorted({fc.data_path for fc in act.fcurves
                           if fc.data_path.startswith('key_blocks[')}) \
            if act else []
        curves += len(animated)
        print('mesh %s: shape keys %s; action %s animates %d of them' % (
            o.name, ' '.join(names), act.name if act else '-',
            len(animated)))
    c['shape_keys'], c['shape_key_curves'] = keys, curves
    for o in arms:
        print('armature %s: %d bones' % (o.name, len(o.data.bones)))
    loaded = 0
    for im in bpy.data.images:
        w, h = im.size          # asks for the pixels: the PNG decodes
        print('image %s: %dx%d' % (im.name, w, h))
        loaded += w > 0 and h > 0
    c['images'] = loaded
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    spans = []
    for a in bpy.data.actions:
        lo, hi = a.frame_range
        spans.append((hi - lo) / fps)
        print('action %s: frames %g..%g at %g fps (%.3f s)' % (
            a.name, lo, hi, fps, (hi - lo) / fps))
    for o in objs:
        if o.type == 'CAMERA':
            print('camera %s: lens %.2f mm' % (o.name, o.data.lens))
    print(' '.join('%s=%d' % kv for kv in sorted(c.items())))
    return c, spans, fps


def key_value(name, frame):
    """Shape key `name`'s value at a Blender frame, by its action's curve
    (its own value when no action drives it), or None when no mesh has
    such a key."""
    for o in bpy.context.scene.objects:
        sk = o.data.shape_keys if o.type == 'MESH' else None
        if not sk or name not in sk.key_blocks:
            continue
        act = sk.animation_data.action if sk.animation_data else None
        path = 'key_blocks["%s"].value' % name
        fc = act.fcurves.find(path) if act else None
        return fc.evaluate(frame) if fc else sk.key_blocks[name].value
    return None


def camera_at(v, fps):
    """Whether the first camera is where v = (frame, x, y, z, rx, ry, rz)
    puts it, evaluated at that game frame (Blender's frame f * fps / 30)."""
    from mathutils import Matrix, Vector
    cams = [o for o in bpy.context.scene.objects if o.type == 'CAMERA']
    if not cams:
        return False, 'a camera (none)'
    at = v[0] / 30.0 * fps
    bpy.context.scene.frame_set(int(at), subframe=at - int(at))
    m = cams[0].matrix_world
    want = Matrix.Translation(Vector(v[1:4])) @ \
        Matrix.Rotation(math.radians(v[6]), 4, 'Z') @ \
        Matrix.Rotation(math.radians(v[5]), 4, 'Y') @ \
        Matrix.Rotation(math.radians(v[4]), 4, 'X')
    turn = max(abs(m[i][j] - want[i][j]) for i in range(3) for j in range(3))
    move = max(abs(m[i][3] - want[i][3]) for i in range(3))
    scale = max(1.0, max(abs(x) for x in v[1:4]))
    return turn <= 1e-3 and move <= 1e-4 * scale, 'camera %s at game frame %g: %s (got %s)' % (
        cams[0].name, v[0], [round(x, 3) for x in v[1:]],
        [[round(m[i][j], 3) for j in range(4)] for i in range(3)])


def object_at(v, fps):
    """Whether mesh object v[1] is at (v[2], v[3], v[4]) at game frame
    v[0], and shown."""
    o = bpy.context.scene.objects.get(v[1])
    if o is None or o.type not in ('MESH', 'LIGHT'):
        return False, 'a mesh object %s (%s)' % (
            v[1], 'none' if o is None else o.type)
    at = float(v[0]) / 30.0 * fps
    bpy.context.scene.frame_set(int(at), subframe=at - int(at))
    m = o.matrix_world
    want = [float(x) for x in v[2:5]]
    got = [m[i][3] for i in range(3)]
    size = min(m.to_scale())
    ok = max(abs(a - b) for a, b in zip(got, want)) <= \
        1e-4 * max(1.0, max(abs(x) for x in want)) and size > 1e-6
    return ok, 'mesh %s at game frame %s: %s, shown (got %s, scale %.3g)' % (
        v[1], v[0], want, [round(x, 4) for x in got], size)


def hidden_at(v, fps):
    """Whether mesh object v[1] is hidden (scaled to 0) at game frame
    v[0]."""
    o = bpy.context.scene.objects.get(v[1])
    if o is None or o.type != 'MESH':
        return False, 'a mesh object %s' % v[1]
    at = float(v[0]) / 30.0 * fps
    bpy.context.scene.frame_set(int(at), subframe=at - int(at))
    size = max(abs(x) for x in o.matrix_world.to_scale())
    return size <= 1e-6, 'mesh %s hidden at game frame %s (scale %.3g)' % (
        v[1], v[0], size)


def game_pixel(p, cam, width, height):
    """Where the game's camera cam = (x, y, z, rx, ry, rz, fov) draws
    world point p on a width x height picture, or None when p is not in
    front of it: view = inverse(T * Rz * Ry * Rx * Rx(180)), +Z forward,
    +Y down (the PS2's view space), the fov the full horizontal one."""
    from mathutils import Matrix, Vector
    m = Matrix.Translation(Vector(cam[0:3])) @ \
        Matrix.Rotation(math.radians(cam[5]), 4, 'Z') @ \
        Matrix.Rotation(math.radians(cam[4]), 4, 'Y') @ \
        Matrix.Rotation(math.radians(cam[3]), 4, 'X') @ \
        Matrix.Rotation(math.pi, 4, 'X')
    v = m.inverted() @ Vector(p)
    if v.z <= 1e-6:
        return None
    f = (width / 2.0) / math.tan(math.radians(cam[6]) / 2)
    return width / 2.0 + f * v.x / v.z, height / 2.0 + f * v.y / v.z


def sees(v, fps):
    """Renders game frame v[0] through the first camera with only mesh
    v[1] drawn, in white on black, and finds it where game_pixel says."""
    from mathutils import Vector
    scene = bpy.context.scene
    cams = [o for o in scene.objects if o.type == 'CAMERA']
    target = scene.objects.get(v[1])
    if not cams or target is None or target.type != 'MESH':
        return False, 'a camera and a mesh object %s' % v[1]
    at = float(v[0]) / 30.0 * fps
    scene.frame_set(int(at), subframe=at - int(at))
    width, height = 192, 144
    scene.camera = cams[0]
    scene.render.engine = 'CYCLES'
    scene.cycles.device = 'CPU'
    scene.cycles.samples = 1
    scene.cycles.use_denoising = False
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    world = bpy.data.worlds.new('black')
    world.color = (0, 0, 0)
    scene.world = world
    white = bpy.data.materials.new('white')
    white.use_nodes = True
    nodes = white.node_tree.nodes
    nodes.clear()
    em = nodes.new('ShaderNodeEmission')
    em.inputs['Strength'].default_value = 1.0
    out = nodes.new('ShaderNodeOutputMaterial')
    white.node_tree.links.new(em.outputs[0], out.inputs[0])
    for o in scene.objects:
        o.hide_render = o is not target and o.type != 'CAMERA'
    target.data.materials.clear()
    target.data.materials.append(white)
    path = os.path.join(os.environ.get('TMPDIR', '/tmp'),
                        'sees-%d.png' % os.getpid())
    scene.render.filepath = path
    scene.render.image_settings.file_format = 'PNG'
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(path)
    px = list(img.pixels)
    os.unlink(path)
    lit = [(i % width, height - 1 - i // width) for i in range(width * height)
           if px[4 * i] > 0.5]          # rows top first
    corners = [target.matrix_world @ Vector(c) for c in target.bound_box]
    centre = [sum(c[k] for c in corners) / 8 for k in range(3)]
    want = game_pixel(centre, [float(x) for x in v[2:9]], width, height)
    if not lit or want is None:
        return False, 'mesh %s in the picture at game frame %s (%d pixels lit, ' \
            'the game puts it at %s)' % (v[1], v[0], len(lit), want)
    x0, x1 = min(p[0] for p in lit), max(p[0] for p in lit)
    y0, y1 = min(p[1] for p in lit), max(p[1] for p in lit)
    ok = x0 - 1 <= want[0] <= x1 + 2 and y0 - 1 <= want[1] <= y1 + 2
    return ok, 'mesh %s at game frame %s drawn at pixels x %d-%d, y %d-%d ' \
        'of %dx%d; the game puts its centre at (%.1f, %.1f)' % (
            v[1], v[0], x0, x1, y0, y1, width, height, want[0], want[1])


def check(expect, c, spans, fps, bbox=None):
    bad = 0
    for e in expect:
        if e.startswith('action_frames='):
            n = int(e.split('=')[1])
            want = max(n - 1, 0) / 30.0
            ok = any(abs(s - want) <= 1.0 / fps + 1e-6 for s in spans)
            got = ', '.join('%.3f' % s for s in spans) or 'none'
            desc = 'an action of %.3f s (got %s)' % (want, got)
        elif e.startswith('key='):
            f, name, want = e.split('=')[1].split(',')
            at = int(f) / 30.0 * fps
            got = key_value(name, at)
            ok = got is not None and abs(got - float(want)) <= 1e-4
            desc = 'shape key %s at game frame %s (Blender %g) is %s (got %s)' \
                % (name, f, at, want, got)
        elif e.startswith('span_frames='):
            want = int(e.split('=')[1]) / 30.0
            ok = any(abs(s - want) <= 1.0 / fps + 1e-6 for s in spans)
            desc = 'an action of %.3f s (got %s)' % (
                want, ', '.join('%.3f' % s for s in spans) or 'none')
        elif e.startswith('camera_at='):
            ok, desc = camera_at([float(x) for x in e.split('=')[1].split(',')],
                                 fps)
        elif e.startswith('object_at='):
            ok, desc = object_at(e.split('=')[1].split(','), fps)
        elif e.startswith('hidden_at='):
            ok, desc = hidden_at(e.split('=')[1].split(','), fps)
        elif e.startswith('sees='):
            ok, desc = sees(e.split('=')[1].split(','), fps)
        elif e.startswith('bbox='):
            want = [float(x) for x in e.split('=')[1].split(',')]
            size = max(max(want[3:][k] - want[k] for k in range(3)), 1.0)
            ok = bbox is not None and all(
                abs(a - b) <= 1e-3 * size for a, b in zip(bbox, want))
            desc = 'bounding box %s (got %s)' % (want, bbox)
        else:
            name, val = e.split('=', 1)
            at_least = val.endswith('+')
            val = val.rstrip('+')
            if name not in c:
                print('FAIL unknown expectation %s' % e)
                bad += 1
                continue
            ok = c[name] >= int(val) if at_least else c[name] == int(val)
            desc = '%s %s %s (got %d)' % (name, '>=' if at_least else '=',
                                          val, c[name])
        print('%s %s' % ('ok  ' if ok else 'FAIL', desc))
        bad += not ok
    return bad


def main(argv):
    args = argv[argv.index('--') + 1:] if '--' in argv else []
    obj = args[:1] == ['--obj']
    if obj:
        args = args[1:]
    if not args:
        print(__doc__)
        return 2
    path, expect = args[0], args[1:]
    # an empty scene: -b still loads the startup file's cube, camera, light
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        if obj:
            # Blender 3.4's Python OBJ importer keeps the file's vertex
            # order and, with axis_forward/up as the file's, its axes.
            r = bpy.ops.import_scene.obj(filepath=path, axis_forward='-Z',
                                         axis_up='Y', split_mode='OFF')
        else:
            r = bpy.ops.import_scene.gltf(filepath=path)
    except Exception as e:      # the importer's own traceback is above
        print('FAIL import: %s' % e)
        return 2
    if 'FINISHED' not in r:
        print('FAIL import: %s' % r)
        return 2
    c, spans, fps = counts()
    bbox = None
    if obj:
        pts = [v.co[:] for o in bpy.context.scene.objects if o.type == 'MESH'
               for v in o.data.vertices]
        if pts:
            bbox = [round(min(p[k] for p in pts), 6) for k in range(3)] + \
                   [round(max(p[k] for p in pts), 6) for k in range(3)]
            print('bbox %s' % ','.join('%g' % x for x in bbox))
    return 1 if check(expect, c, spans, fps, bbox) else 0


try:
    finish(main(sys.argv))
except Exception:
    import traceback
    traceback.print_exc()
    finish(2)
