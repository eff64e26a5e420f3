#!/bin/sh
# SPDX-License-Identifier: MIT
# scene_full.sh - every scene.glb of the full-size synthetic disc (the real
# disc's shape: a thousand scenes of 3 to 19,000 objects, 460 MB of glTF
# in DATA.BIN) through the Khronos validator and the
# independent reader, glbcheck.py: no error, every mesh where the game's
# pose puts it; every cutscene (one of 18,000 frames) through cutcheck.py,
# its time and the daemon's peak memory.  scene.sh does the same for the
# sample disc, with Blender.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

# A missing client is a skip on a workstation, a failure in CI.
need_gltf_tools

disc=$work/full
mnt=$work/mnt
# With a 10-minute cutscene (18,000 frames) as the third of the stream's.
"$CCSGEN" full "$disc" --cutscene-frames 18000 >/dev/null ||
	{ echo "Bail out! ccsgen full"; exit 1; }
check "mounts the full-size disc" mount_ccsfs "$disc" "$mnt"
# Under a sanitizer, every 16th member of DATA.BIN and every stream
# scene: the plain build's run checks all of them, and a thousand
# members listed and made by an ASan daemon took most of CI's half hour.
if ccsfs_sanitized; then
	ls "$mnt/DATA/DATA.BIN" | grep -v '^%' | awk 'NR % 16 == 1' |
		while IFS= read -r m; do
			f=$mnt/DATA/DATA.BIN/$m/scene.glb
			[ -f "$f" ] && echo "$f"
		done >"$work/glbs"
	find "$mnt/STREAM" -name scene.glb | sort >>"$work/glbs"
	n=$(wc -l <"$work/glbs")
	check "a sixteenth of the members and the streams have tens of scene.glb ($n)" \
		test "$n" -ge 30
else
	find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name scene.glb | sort >"$work/glbs"
	n=$(wc -l <"$work/glbs")
	check "the full-size disc has hundreds of scene.glb ($n)" test "$n" -ge 500
fi

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

# Every cutscene of the stream archive (one of them 10 minutes, 18,000
# frames) on a fresh mount with a 128 MiB cache: each scene.glb read
# whole and compared with its .ccs files by cutcheck.py, and the daemon's
# peak memory within the cache and 32 MiB.
check "mounts the full-size disc again, cache_size=128M" \
	mount_fg "$disc" "$mnt" "$work/cut.log" -o cache_size=128M
find "$mnt/STREAM" -name frames.txt | sed 's|frames.txt$|scene.glb|' | sort >"$work/cuts"
check_eq "every cutscene of the stream archive has a scene.glb" \
	"$(wc -l <"$work/cuts")" "$(cat "$work/cuts" | xargs ls 2>/dev/null | wc -l)"
t0=$(date +%s.%N)
bad=$(glbcheck_each "$work/cuts")
t1=$(date +%s.%N)
check_eq "cutcheck: every cutscene's nodes and camera on their records" "" "$bad"
echo "# $(wc -l <"$work/cuts") cutscene scene.glb read and checked in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
grep -h 'placements' "$work"/glbcheck.str*.out | sed 's/^/# /'
# str0004 is in the game's layout, one of its ExtObj nodes with a target
# no file defines: error.txt names it, and its records.
check_eq "error.txt of str0004 names the node whose ExtObj target is missing" \
	"nodes: OBJ_s0004_ggone_drv: its target OBJ_s0004_ggone is an Obj or ExtObj of no file of the pair: left out
frames: 60 records for OBJ_s0004_ggone_drv, which the pair does not define: left out" \
	"$(cat "$mnt/STREAM/STR1.BIN/str0004/error.txt")"
peak=$(vm_kb "$fg_pid" VmHWM)
echo "# daemon peak: $peak kB"
# A sanitizer's shadow memory and quarantine are not the daemon's: the
# bound holds for the build users run.
if ccsfs_sanitized; then
	skip "the daemon's peak stays within cache_size + 32 MiB ($peak kB)" \
		"a sanitizer build's memory is the sanitizer's"
else
	check "the daemon's peak stays within cache_size + 32 MiB ($peak kB)" \
		test "$peak" -le $(((128 + 32) * 1024))
fi
check "unmounts the second mount" unmount_fg "$mnt"

done_testing
