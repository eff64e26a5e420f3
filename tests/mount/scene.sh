#!/bin/sh
# SPDX-License-Identifier: MIT
# scene.sh - every scene.glb of the sample disc through real clients: the
# Khronos validator (no errors), glbcheck.py (its meshes sit where the
# game's pose puts them, at frame 0 and later), and Blender's importer (a
# character's mesh, armature, image and action; a posed model.obj; the
# shape keys of morph targets' bases and their actions).
#
# By hand: make check TESTS=tests/mount/scene.sh
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

# A missing client is a skip on a workstation, a failure in CI.
need_gltf_tools
command -v blender >/dev/null || skip_all "no blender"

disc=$work/disc
mnt=$work/mnt
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts the sample disc" mount_ccsfs "$disc" "$mnt"

# Every member whose CCSF file has an Obj chunk has a scene.glb, and so
# has a cutscene's scene file (frames.txt) whose setup file has one; no
# other member has one.
obj_chunks() {
	n=$("$PY" "$gltf/glbcheck.py" --info "$1" | sed -n 's/^obj_chunks=\([0-9]*\).*/\1/p')
	[ "${n:-0}" -gt 0 ]
}
: >"$work/want"
for ccs in $(find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name '*.ccs' | sort); do
	d=$(dirname "$ccs")
	m=$(basename "$d")
	if obj_chunks "$ccs" || { [ -f "$d/frames.txt" ] &&
	   obj_chunks "$d/../${m}e/${m}e.ccs"; }; then
		echo "$d/scene.glb" >>"$work/want"
	fi
done
sort -o "$work/want" "$work/want"
find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name scene.glb | sort >"$work/glbs"
check_eq "scene.glb in exactly the members with an Obj chunk, and the cutscenes" \
	"$(cat "$work/want")" "$(cat "$work/glbs")"
check "some members have a scene.glb" test -s "$work/glbs"

# shellcheck disable=SC2046
check "the glTF validator finds no error in any scene.glb" \
	node "$gltf/validate.js" $(cat "$work/glbs")
cp "$work/last.out" "$work/validate.out"

bad=$(glbcheck_each "$work/glbs")
check_eq "glbcheck: every mesh where the game's pose puts it, frames 0, 10, 20" "" "$bad"
for b in $bad; do
	grep -h 'mismatches\|glbcheck:\|no such\|no model\|disagreeing' \
		"$work/glbcheck.$(basename "$(dirname "$b")").out" | head -n 10 | sed 's/^/# /'
done

blend() {
	blender -b --factory-startup --python "$gltf/blender_import.py" -- "$@"
}

# The character: pc000 when the sample has it, else chr000.
chr=$mnt/DATA/DATA.BIN/pc000
[ -d "$chr" ] || chr=$mnt/DATA/DATA.BIN/chr000
c=$(basename "$chr")
info=$("$PY" "$gltf/glbcheck.py" --info "$chr/$c.ccs")
nodes=$(echo "$info" | sed -n 's/.*clump_nodes=\([0-9]*\).*/\1/p')
frames=$(echo "$info" | sed -n 's/.*anime_frames=\([0-9]*\).*/\1/p')
check "Blender imports $c/scene.glb: a mesh, $nodes bones, an image, a $frames-frame action" \
	blend "$chr/scene.glb" meshes=1+ armatures=1+ bones="$nodes" images=1+ \
	actions=1+ action_frames="$frames"

# The cutscene, in Blender: the scene file's 60 frames are a 2 s action
# (48 frames at Blender's 24 fps), and the camera is where the frame
# section's F_Camera records put it: the full record of frame 22 at
# frame 25 (position and rotation from gen_cutscene.c), frame 52's at 59;
# MPH_ribbon's F_Morpher records (frames 6, 16, ...: MDL_tgtA at
# frame % 30 / 30, MDL_tgtB at 0.5) are its base's shape keys.  Two of
# the five meshes are the common setup file str8000e's: OBJ_cmn_gull,
# whose records (frames 7, 13, 19, ...) put it at (-8, 3, frame / 4),
# and its child OBJ_cmn_wing.  The camera's fov animation
# (KHR_animation_pointer) is not Blender 3.4's to read; it still imports
# the rest.
cut=$mnt/STREAM/STR1.BIN/str0001
check "Blender imports the cutscene: its five objects (two from str8000e), a 60-frame action, the camera on its records, the F_Morpher weights" \
	blend "$cut/scene.glb" meshes=5 cameras=1 span_frames=60 \
	camera_at=25,0,-100,20,90,0,22 camera_at=59,0,-100,20,90,0,52 \
	shape_keys=2 shape_key_curves=2 key=5,MDL_tgtB,0 key=6,MDL_tgtB,0.5 \
	key=17,MDL_tgtA,0.5333 key=26,MDL_tgtA,0.8667 \
	object_at=7,OBJ_cmn_gull,-8,3,1.75 object_at=16,OBJ_cmn_gull,-8,3,3.25 \
	object_at=31,OBJ_cmn_gull,-8,3,7.75
check_fails "... and the check fails on the gull a frame early" \
	blend "$cut/scene.glb" object_at=30,OBJ_cmn_gull,-8,3,7.75
check_fails "... and the check fails on a camera a frame late" \
	blend "$cut/scene.glb" camera_at=25,0,-100,20,90,0,23

# str0002 is laid out as the game's cutscenes are (gen_cutscene_game.c):
# its nodes are the scene file's Clump's ExtObj and Obj chunks.  Blender
# shows the six that reach a model (a shadow node is left out; gchar_drv's
# is a bone model, posed at frame 0 as its own file poses it) and one
# camera (the scene file's first;
# the spare one is never moved).  g0_drv moves along its records (x =
# frame / 2), g1_drv sits below it at (0, 4, 0) of it turned with it,
# shows while g0_drv is switched off (50-54), and hides while
# g0_drv's transparency (0.25, frames 20-28) times its own (0.02) is
# below 1/128, between its own records,
# g2_drv (an ExtObj chain) shows from frame 12, hides while switched off
# (30-39) and while its transparency is below 1/128 (44-47); the part
# node gown hides at the origin until frame 20; the gull is str8000e's;
# gchar_drv moves every tenth frame to (-8, 0, fr / 10).
# Its F_DistantLight and F_OmniLight records drive two lights (the omni
# one at (fr / 2, -2, 14) from its record every tenth frame).
sd=$mnt/STREAM/STR1.BIN
g2=$sd/str0002
check "Blender imports str0002 (the game's layout): its nodes move, hide and show on their records" \
	blend "$g2/scene.glb" meshes=6 cameras=1 lights=2 span_frames=60 \
	object_at=21,LGT_s0002_lamp,10,-2,14 \
	object_at=0,OBJ_s0002_g0_drv,0,0,10 object_at=25,OBJ_s0002_g0_drv,12.5,0,10 \
	object_at=4,OBJ_s0002_g1_drv,1.1684,3.9126,10 \
	hidden_at=52,OBJ_s0002_g0_drv object_at=52,OBJ_s0002_g1_drv,24.3730,-3.6542,10 \
	object_at=19,OBJ_s0002_g1_drv,6.1453,2.1786,10 hidden_at=20,OBJ_s0002_g1_drv \
	hidden_at=25,OBJ_s0002_g1_drv object_at=29,OBJ_s0002_g1_drv,10.5055,0.2093,10 \
	hidden_at=11,OBJ_s0002_g2_drv object_at=13,OBJ_s0002_g2_drv,-6,2,9.2 \
	hidden_at=31,OBJ_s0002_g2_drv object_at=41,OBJ_s0002_g2_drv,-6,2,12 \
	hidden_at=45,OBJ_s0002_g2_drv object_at=49,OBJ_s0002_g2_drv,-6,2,12.8 \
	hidden_at=10,OBJ_s0002_gown object_at=21,OBJ_s0002_gown,2,-3,6 \
	object_at=6,OBJ_s0002_gull_drv,8,5,12 \
	object_at=25,OBJ_s0002_gchar_drv,-8,0,2 \
	camera_at=25,10,-6,16,45,0,5
check_fails "... and the check fails on g2_drv shown inside its hidden span" \
	blend "$g2/scene.glb" object_at=35,OBJ_s0002_g2_drv,-6,2,11.4

# cutcheck.py learns the game's layout on its own (FORMATS.md): the
# nodes, their chains, parents, hidden spans, the camera and the lights,
# at frames either side of each change.
check "cutcheck: str0002's nodes and camera and lights where the game puts them, sixteen frames" \
	"$PY" "$gltf/cutcheck.py" "$g2/scene.glb" "$g2/str0002.ccs" \
	"$sd/str0002e/str0002e.ccs" "$sd/str8000e/str8000e.ccs" \
	--frames 0,4,11,13,15,19,20,21,25,29,30,31,45,49,52,59 --require OBJ_s0002_g0_drv \
	--require OBJ_s0002_g1_drv --require OBJ_s0002_g2_drv \
	--require OBJ_s0002_gull_drv --require OBJ_s0002_gown \
	--require OBJ_s0002_gchar_drv
sed 's/^/# /' "$work/last.out"
check_fails "... and fails without str8000e, which defines the gull" \
	"$PY" "$gltf/cutcheck.py" "$g2/scene.glb" "$g2/str0002.ccs" \
	"$sd/str0002e/str0002e.ccs"

# The camera looks where the game's does: rendered through it, g0_drv
# is drawn where the game's view matrix (+Z forward, +Y down, the
# F_Camera record's T * Rz * Ry * Rx * Rx(180) inverted) puts it, at
# frame 0 and at frame 25 (the camera moved and turned at frame 20), and
# g1_drv at frame 0; a camera turned half round would not see it.
check "Blender renders str0002 through its camera: g0_drv and g1_drv in the picture where the game draws them" \
	blend "$g2/scene.glb" sees=0,OBJ_s0002_g0_drv,0,-6,16,45,0,0,50 \
	sees=25,OBJ_s0002_g0_drv,10,-6,16,45,0,5,50 \
	sees=0,OBJ_s0002_g1_drv,0,-6,16,45,0,0,50
sed -n 's/^\(ok\|FAIL\) *mesh .* drawn/# &/p' "$work/last.out"
check_fails "... and the check fails for a camera turned half round" \
	blend "$g2/scene.glb" sees=25,OBJ_s0002_g0_drv,10,-6,16,45,0,185,50
check "str0002 has no error.txt: the shadow node is left out without a word" \
	test ! -e "$g2/error.txt"

# The common file's objects in the GLB on their own: their meshes hold
# their models' vertices and sit where their F_Obj records put them at
# frames 7, 16 and 31, and the camera's yfov is the F_Camera records'
# fov (44, 54 then 64 degrees) at each: cutcheck.py reads the records
# and the GLB itself.
check "cutcheck: str8000e's OBJ_cmn_gull and OBJ_cmn_wing on their records, the camera's fov on its records, frames 7, 16, 31" \
	"$PY" "$gltf/cutcheck.py" "$cut/scene.glb" "$cut/str0001.ccs" \
	"$sd/str0001e/str0001e.ccs" "$sd/str8000e/str8000e.ccs" \
	--frames 7,16,31 --require OBJ_cmn_gull --require OBJ_cmn_wing \
	--fov-changes
sed 's/^/# /' "$work/last.out"
check_fails "... and fails without str8000e, which places the wing below the gull" \
	"$PY" "$gltf/cutcheck.py" "$cut/scene.glb" "$cut/str0001.ccs" \
	"$sd/str0001e/str0001e.ccs" --frames 7,16,31
check "the fov animation is KHR_animation_pointer's, used but not required" \
	"$PY" - "$cut/scene.glb" <<'PY'
import json, struct, sys
b = open(sys.argv[1], 'rb').read()
g = json.loads(b[20:20 + struct.unpack_from('<I', b, 12)[0]])
sys.exit(0 if 'KHR_animation_pointer' in g.get('extensionsUsed', []) and
         'KHR_animation_pointer' not in g.get('extensionsRequired', []) else 1)
PY
check "error.txt of the cutscene does not list the common file's objects" \
	sh -c "! grep -q 'OBJ_cmn_gull\|OBJ_cmn_wing' '$cut/error.txt' 2>/dev/null"
check "str8000e's object no cutscene names is not in the cutscene" \
	sh -c "! grep -aq 'OBJ_cmn_unused' '$cut/scene.glb'"
check_eq "the cutscene's extras name its sound and its length" \
	'audio.wav 60 30' "$("$PY" - "$cut/scene.glb" <<'PY'
import json, struct, sys
b = open(sys.argv[1], 'rb').read()
e = json.loads(b[20:20 + struct.unpack_from('<I', b, 12)[0]])['asset']['extras']
print(e['audio'], e['frames'], e['frames_per_second'])
PY
)"

# Sound and picture share one clock: audio.wav (1,600 samples a frame at
# 48 kHz) lasts as long as the animation (frames / 30 s), within the one
# 256-sample block that rounding to whole blocks may add.
check_eq "audio.wav lasts as long as the cutscene's animation" \
	'2.000 2.000 ok' "$("$PY" - "$cut/scene.glb" "$cut/audio.wav" <<'PY'
import json, struct, sys, wave
b = open(sys.argv[1], 'rb').read()
g = json.loads(b[20:20 + struct.unpack_from('<I', b, 12)[0]])
end = max(g['accessors'][s['input']]['max'][0]
          for a in g['animations'] for s in a['samplers'])
w = wave.open(sys.argv[2])
sound = w.getnframes() / w.getframerate()
print('%.3f %.3f %s' % (end, sound,
      'ok' if 0 <= sound - end < 256 / 48000 + 1e-9 else 'apart'))
PY
)"

# A posed bone (or skin) model's model.obj: its vertices, and its box
# where the game's frame 0 puts them.
mdl=$(cd "$chr" && ls -d MDL_*_bone MDL_*_skin 2>/dev/null | head -n1)
if [ -n "$mdl" ]; then
	want=$("$PY" "$gltf/glbcheck.py" --info "$chr/$c.ccs" "$mdl" | sed -n 2p)
	# shellcheck disable=SC2086
	check "Blender imports the posed $c/$mdl/model.obj ($want)" \
		blend --obj "$chr/$mdl/model.obj" $want
else
	not_ok "$c has a bone or skin model"
fi
# Morph targets: a base mesh has a shape key per target, named after it,
# and the action moves them as the F_Morpher records say (glbcheck
# --morph reads them from the .ccs): xasc02's rigid model, chr000's bone
# model (skinned).
for m in xasc02 chr000; do
	d=$mnt/DATA/DATA.BIN/$m
	want=$("$PY" "$gltf/glbcheck.py" --morph "$d/$m.ccs")
	keys=$(echo "$want" | cut -d' ' -f1)
	check "$m has morph targets that fit ($keys)" test "$keys" != shape_keys=0
	# shellcheck disable=SC2086
	check "Blender imports $m/scene.glb: shape keys that animate" \
		blend "$d/scene.glb" meshes=1+ $want
done
check "unmounts cleanly" unmount "$mnt"

done_testing
