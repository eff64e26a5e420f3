#!/bin/sh
# SPDX-License-Identifier: MIT
# broken.sh - bad members never take the mount down: each lists, says
# what failed in error.txt, keeps what could be decoded, fails with EIO.
# (The members that claim gigabytes, after good2, are limits.sh's.)
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

arc=$work/broken.bin
raw=$work/raw/broken.bin
mnt=$work/mnt
"$CCSGEN" broken "$arc" --raw "$work/raw" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }

check "mounts the broken archive" mount_ccsfs "$arc" "$mnt" -o cache_size=64K
check_eq "every member lists, the nameless one by its sector" \
	"badanim badcrc badsize badtex cut good1 good2 idx2p31 isize4g liar mdl2p31 member-10 pastend str0900 str0900e tex2p20 texliar trailer unkkind" \
	"$(ls "$mnt" | grep -v '^%' | tr '\n' ' ' | sed 's/ $//')"
# The listing's size is told before anything is inflated; it must be
# the size of what reading it then makes.
before=$(stat -c %s "$mnt/%members.txt")
check_eq "%members.txt: size before reading equals bytes read" "$before" "$(wc -c <"$mnt/%members.txt")"
for m in good1 good2 member-10; do
	check "$m: its .ccs is the member" cmp "$mnt/$m/$m.ccs" "$raw/$m.ccs"
	check_fails "$m: no error.txt" test -e "$mnt/$m/error.txt"
done

check "badcrc: error.txt names the check that failed" grep -q 'incorrect data check' "$mnt/badcrc/error.txt"
check "badcrc: reading the .ccs fails with EIO" sh -c "cat '$mnt/badcrc/badcrc.ccs' 2>&1 >/dev/null | grep -q 'Input/output error'"
check "badcrc: its chunks still read" sh -c "cat '$mnt/badcrc/chunks/'* | cmp - '$raw/badcrc.ccs'"
check "badcrc: its objects still read" test -s "$mnt/badcrc/TEX_badcrc/texture.txt"

check "cut: error.txt says the data was cut" grep -q 'cut off' "$mnt/cut/error.txt"
cat "$mnt/cut/chunks/"* >"$work/cut.part"
check "cut: some bytes inflated before the cut" test -s "$work/cut.part"
# zlib may turn the last bits before the cut into a few wrong bytes.
check "cut: they are the member's first bytes (but the last few)" \
	cmp -n "$(($(stat -c %s "$work/cut.part") - 64))" "$work/cut.part" "$raw/cut.ccs"
check "cut: but not all of them" test "$(stat -c %s "$work/cut.part")" -lt "$(stat -c %s "$raw/cut.ccs")"

check "unkkind: error.txt names the unknown kind" grep -q 'unknown kind' "$mnt/unkkind/error.txt"
check "unkkind: the .ccs still reads (inflation was fine)" cmp "$mnt/unkkind/unkkind.ccs" "$raw/unkkind.ccs"
check "unkkind: chunks before the fault plus a trailer make the file" \
	sh -c "cat '$mnt/unkkind/chunks/'* | cmp - '$raw/unkkind.ccs'"
check "unkkind: the rest lands in the trailer" sh -c "ls '$mnt/unkkind/chunks' | tail -n 1 | grep -q -- '-trailer.bin$'"
check "liar: error.txt says the index claims too much" grep -q 'claims' "$mnt/liar/error.txt"
check "texliar: error.txt says the levels run past the end" grep -q 'levels run past the end' "$mnt/texliar/error.txt"
check "texliar: the palette before it still decodes" grep -q '^colour 15: ' "$mnt/texliar/CLT_texliar/clut.txt"
check "badsize: error.txt names the length check" grep -q 'incorrect length check' "$mnt/badsize/error.txt"
t=$mnt/badtex
for o in psm huge short noclut range oddclut; do
	check "badtex: TEX_$o/texture.png fails with EIO" sh -c \
		"cat '$t/TEX_$o/texture.png' 2>&1 >/dev/null | grep -q 'Input/output error'"
	check "badtex: TEX_$o keeps its raw chunk" test -s "$t/TEX_$o/texture.bin"
	check_eq "badtex: TEX_$o/texture.png is listed with size 0" 0 "$(stat -c %s "$t/TEX_$o/texture.png")"
done
check "badtex: a psm other than 0x13/0x14 is named" grep -q 'psm' "$t/TEX_psm/error.txt"
check "badtex: tw above 10 is named" grep -q 'tw' "$t/TEX_huge/error.txt"
check "badtex: too few pixels is said" grep -qi 'pixel\|bytes' "$t/TEX_short/error.txt"
check "badtex: a missing palette is said" grep -qi 'palette\|clut' "$t/TEX_noclut/error.txt"
check "badtex: an index past the palette is said" grep -qi 'index' "$t/TEX_range/error.txt"
check "badtex: an odd palette count is said" grep -qi 'odd\|17' "$t/CLT_odd/error.txt"
check "badtex: the good palette still makes its PNG" sh -c "cat '$t/CLT_small/palette.png' | head -c 8 | od -An -tx1 | grep -q '89 50 4e 47'"
check "pastend: error.txt says the size runs past the end" grep -q 'past the end' "$mnt/pastend/error.txt"
check "trailer: bytes after the end Top are a trailer chunk" sh -c "ls '$mnt/trailer/chunks' | grep -q -- '-trailer.bin$'"
check_fails "trailer: a trailer is no error" test -e "$mnt/trailer/error.txt"
a=$mnt/badanim
check "badanim: error.txt names the controller with selector 5" \
	grep -qx 'anime.txt: object-ctl at +0x18: rotation: selector 5 (only 0, 1 and 2 are known)' "$a/ANM_badsel/error.txt"
check "badanim: anime.txt ends that record with an error line" \
	grep -qx '  error: rotation: selector 5 (only 0, 1 and 2 are known)' "$a/ANM_badsel/anime.txt"
check "badanim: anime.txt still shows the controller after it" sh -c \
	"grep -A1 -x '0 object-ctl OBJ_badanim flags=0x00000001' '$a/ANM_badsel/anime.txt' | grep -qx '  position: constant 7 8 9'"
check "badanim: anime.txt still shows the Tops after it" grep -qx '2 top - frame=2' "$a/ANM_badsel/anime.txt"
check "badanim: error.txt names the controller whose keys run past the chunk" \
	grep -qx 'anime.txt: object-ctl at +0x18: position: 1000 keys need 16000 bytes, 32 left' "$a/ANM_badkeys/error.txt"
check "badanim: the material controller after it still shows" sh -c \
	"grep -A1 '^0 material-ctl MAT_badanim ' '$a/ANM_badkeys/anime.txt' | grep -qx '  v: constant 0.25'"
check "badanim: the end Top still shows" grep -qx -- '-2 top - frame=-2' "$a/ANM_badkeys/anime.txt"
check_fails "badanim: no error.txt for the member (it walks)" test -e "$a/error.txt"
check "badanim: MPH_badanim's error.txt names the morph target that does not fit" \
	grep -qx 'scene.glb: morph target MDL_badtgt left out: mmat 0 has 7 vertices, the base 10' "$a/MPH_badanim/error.txt"
check "badanim: scene.glb's extras leave it out too" \
	grep -qa '"left_out":\[[^]]*"MDL_badtgt: morph target of MDL_badanim (MPH_badanim): mmat 0 has 7 vertices, the base 10"' "$a/scene.glb"
check_fails "badanim: its base mesh has no morph targets" grep -qa '"targets"' "$a/scene.glb"

# A cutscene whose frames cannot all be shown: scene.glb keeps the rest,
# and error.txt (and the GLB's extras) say what is left out.
c=$mnt/str0900
check "str0900: error.txt names the records of an object the pair does not define" \
	grep -qx 'frames: 5 records for OBJ_ghost, which the pair does not define: left out' "$c/error.txt"
check "str0900: ... the camera no record places" \
	grep -qx 'frames: camera CAM_x0900 has no F_Camera record: it stays where its setup puts it' "$c/error.txt"
check "str0900: ... the Top that goes back in time" \
	grep -q '^frames: the Top at byte [0-9]* goes back in time' "$c/error.txt"
check "str0900: ... and the cut frame section" \
	grep -q '^frames: the file is cut at byte [0-9]* (' "$c/error.txt"
check "str0900: scene.glb's extras leave the same out" \
	grep -qa '"left_out":\["frames: 5 records for OBJ_ghost' "$c/scene.glb"
check_eq "str0900: the object it defines keeps its keys: frames 0-3, 5, then the end at 8" \
	"0 1 2 3 5 8" "$("$PY" - "$c/scene.glb" <<'PY'
import json, struct, sys
b = open(sys.argv[1], 'rb').read()
n = struct.unpack_from('<I', b, 12)[0]
j = json.loads(b[20:20 + n])
binary = b[20 + n + 8:]
a = j['animations'][0]
node = [x['name'] for x in j['nodes']].index('OBJ_x0900')
ch = next(c for c in a['channels'] if c['target'] == {'node': node, 'path': 'translation'})
acc = j['accessors'][a['samplers'][ch['sampler']]['input']]
view = j['bufferViews'][acc['bufferView']]
off = view.get('byteOffset', 0) + acc.get('byteOffset', 0)
ts = struct.unpack_from('<%df' % acc['count'], binary, off)
print(' '.join('%g' % round(t * 30) for t in ts))
PY
)"

check_eq "listing marks the broken members" "badcrc broken cut broken badsize broken isize4g broken " \
	"$(awk '$2 != "ok" && NR > 1 { printf "%s %s ", $1, $2 }' "$mnt/%members.txt")"
check "the mount is alive after all of it" cmp "$mnt/good2/good2.ccs" "$raw/good2.ccs"
check "walk every file; only the broken .ccs fail" sh -c "
	find '$mnt' -type f | sort | while IFS= read -r f; do
		cat \"\$f\" >/dev/null 2>&1 || echo \"\$f\"
	done | sed 's|.*/||' | tr '\n' ' ' | grep -qx 'badcrc.ccs badsize.ccs palette.png texture.png texture.png texture.png texture.png texture.png texture.png cut.ccs isize4g.ccs texture.png '"
check "unmounts cleanly" unmount "$mnt"

done_testing
