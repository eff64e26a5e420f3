# SPDX-License-Identifier: MIT
# contrib/render-scene.py - a scene.glb rendered by Blender, headless, at
# the frames given, through the scene's own camera (the first one):
#
#   blender -b --factory-startup --python contrib/render-scene.py -- \
#       mnt/DATA/DATA.BIN/pc000/scene.glb out 1 13 [side]
#
# `side` looks from the figure's side (glTF +X, 120 units out) instead.
# writes out-1.png and out-13.png (480x360, Cycles on the CPU).  Blender
# runs at 24 frames a second and the game at 30, so Blender frame 13 is
# half a second in, the game's frame 15.
import sys

import numpy
# Debian 12's numpy 1.24 dropped numpy.bool, which Blender 3.4's glTF
# importer still uses for skins.
numpy.bool = numpy.bool_
import bpy  # noqa: E402

argv = sys.argv[sys.argv.index('--') + 1:]
side = 'side' in argv
argv = [a for a in argv if a != 'side']
glb, out, frames = argv[0], argv[1], [int(f) for f in argv[2:]]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
scene = bpy.context.scene
cameras = [o for o in scene.objects if o.type == 'CAMERA']
if side:
    data = bpy.data.cameras.new('side')
    cam = bpy.data.objects.new('side', data)
    scene.collection.objects.link(cam)
    # Blender is Z-up again after the importer: +X, at the hips' height.
    cam.location = (120, 0, 30)
    cam.rotation_euler = (1.5708, 0, 1.5708)
    data.lens = 40
    cameras = [cam]
if not cameras:
    sys.stderr.write('render-scene: %s has no camera\n' % glb)
    sys.exit(1)
scene.camera = cameras[0]
scene.render.engine = 'CYCLES'
scene.cycles.device = 'CPU'
scene.cycles.samples = 16
# Debian's Blender is built without OpenImageDenoise.
scene.cycles.use_denoising = False
for layer in scene.view_layers:
    layer.cycles.use_denoising = False
scene.render.resolution_x, scene.render.resolution_y = 480, 360
world = bpy.data.worlds.new('ccsfs')
scene.world = world
world.use_nodes = True
world.node_tree.nodes['Background'].inputs[1].default_value = 3.0
for f in frames:
    scene.frame_set(f)
    scene.render.filepath = '%s-%d.png' % (out, f)
    bpy.ops.render.render(write_still=True)
