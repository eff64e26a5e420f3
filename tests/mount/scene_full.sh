#!/bin/sh
# SPDX-License-Identifier: MIT
# scene_full.sh - every scene.glb of the full-size synthetic disc (about a
# thousand scenes, 560 MB of glTF) through the Khronos validator and the
# independent reader, glbcheck.py: no error, every mesh where the game's
# pose puts it.  scene.sh does the same for the sample disc, with Blender.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

# A missing client is a skip on a workstation, a failure in CI.
need_gltf_tools

disc=$work/full
mnt=$work/mnt
"$CCSGEN" full "$disc" >/dev/null || { echo "Bail out! ccsgen full"; exit 1; }
check "mounts the full-size disc" mount_ccsfs "$disc" "$mnt"
find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name scene.glb | sort >"$work/glbs"
n=$(wc -l <"$work/glbs")
check "the full-size disc has hundreds of scene.glb ($n)" test "$n" -ge 500

# In batches, so no command line grows past the system's limit.
split -l 200 "$work/glbs" "$work/batch."
bad=0
for b in "$work"/batch.*; do
	# shellcheck disable=SC2046
	node "$gltf/validate.js" $(cat "$b") >"$b.out" 2>&1 || bad=$((bad + 1))
done
check_eq "the glTF validator finds no error in any of the $n scene.glb" 0 "$bad"
grep -h '^total' "$work"/batch.*.out | sed 's/^/# /'

bad=$(glbcheck_each "$work/glbs")
check_eq "glbcheck: every mesh of every scene.glb where the game's pose puts it" "" "$bad"
check "unmounts cleanly" unmount "$mnt"

done_testing
