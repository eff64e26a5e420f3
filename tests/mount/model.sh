#!/bin/sh
# SPDX-License-Identifier: MIT
# model.sh - every model.obj and hit.obj of the sample disc loads in an
# independent reader (assimp), with as many triangles as the raw chunk
# holds by the strip rule, and its material's texture is where map_Kd
# points.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

command -v assimp >/dev/null || skip_all "no assimp (assimp-utils)"

disc=$work/disc
mnt=$work/mnt
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts the sample disc" mount_ccsfs "$disc" "$mnt"

find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name model.obj -o -name hit.obj | sort >"$work/objs"
check_eq "every model object has model.obj" \
	"$(find "$mnt" -path '*/MDL_*/model.bin' | wc -l)" "$(grep -c '/model\.obj$' "$work/objs")"
check "hit objects have hit.obj" test "$(grep -c '/hit\.obj$' "$work/objs")" -gt 0

# Triangles a raw chunk holds, read here in Python, apart from model.c:
# a vertex whose strip flag is 0 closes a triangle with the two before it.
cat >"$work/faces.py" <<'PY'
import struct, sys

VERTS = [0]

def rigid_or_bone(b, o, n, mtype, bone):
    VERTS[0] += n
    if bone:
        o += 4                                  # node slot
    o += (n * 6 + 3) & ~3                       # positions
    if not bone and mtype & 0x40:
        return o + 4 * n * ((not mtype & 0x200) + (not mtype & 0x400)), 0
    flags = [b[o + 4 * k + 3] for k in range(n)]
    o += 4 * n
    if bone:
        o += 4 * n                              # st
    else:
        o += 4 * n * ((not mtype & 0x200) + (not mtype & 0x400))
    return o, sum(1 for k in range(2, n) if flags[k] == 0)

def model_faces(b, version):
    o = 8
    mtype, mmats = struct.unpack_from('<HH', b, o + 8)
    o += 20
    if version < 0x100:
        mtype &= 0xff
    faces = 0
    for _ in range(mmats):
        if mtype & 4:
            mat, n, offsets = struct.unpack_from('<III', b, o)
            o += 12
            if offsets:
                return None                     # skin: loads, not counted
            o, f = rigid_or_bone(b, o, n, mtype, True)
        elif mtype & 8:
            vn, inum = struct.unpack_from('<ii', b, o)
            o += 8
            if vn == 0:
                continue
            VERTS[0] += vn
            o += (vn * 6 + 3) & ~3
            f = inum // 3
            o += 12 * f
        else:
            name, mat, n = struct.unpack_from('<III', b, o)
            o += 12
            o, f = rigid_or_bone(b, o, n, mtype, False)
        faces += f
    return faces

def hit_faces(b):
    o = 8
    groups = struct.unpack_from('<H', b, o + 8)[0]
    o += 16
    faces = 0
    for _ in range(groups):
        n, attr = struct.unpack_from('<II', b, o)
        o += 8 + 24 * n
        faces += n // 3
        VERTS[0] += n
    return faces

path, version = sys.argv[1], int(sys.argv[2], 16)
raw = open(path, 'rb').read()
f = hit_faces(raw) if path.endswith('hit.bin') else model_faces(raw, version)
print('- -' if f is None else '%d %d' % (f, VERTS[0]))
PY

bad=""
counted=0
while IFS= read -r obj; do
	dir=$(dirname "$obj")
	member=$(dirname "$dir")
	version=$(sed -n 's/^version: //p' "$member/scene.txt")
	bin=$dir/$(basename "$obj" .obj).bin
	set -- $("$PY" "$work/faces.py" "$bin" "$version")
	want=$1
	[ "$2" = - ] || [ "$2" = "$(grep -c '^v ' "$obj")" ] ||
		bad="$bad ${obj#$mnt/}(vertices $(grep -c '^v ' "$obj")!=$2)"
	# assimp refuses a file without faces (positions-only morph targets,
	# empty models): there the OBJ must hold no face either.
	if [ "$want" = 0 ]; then
		grep -q '^f ' "$obj" && bad="$bad ${obj#$mnt/}(faces!=0)"
		counted=$((counted + 1))
		continue
	fi
	got=$(assimp info "$obj" 2>/dev/null | sed -n 's/^Faces: *//p')
	if [ -z "$got" ]; then
		bad="$bad ${obj#$mnt/}(assimp)"
	elif [ "$want" != - ] && [ "$want" != "$got" ]; then
		bad="$bad ${obj#$mnt/}($got!=$want)"
	fi
	[ "$want" = - ] || counted=$((counted + 1))
done <"$work/objs"
check_eq "every OBJ has the raw chunk's vertices; assimp loads it with its triangles" "" "$bad"
check "most OBJ files were counted (all but skin models)" test "$counted" -gt 20

missing=""
for mtl in $(find "$mnt/DATA/DATA.BIN" "$mnt/STREAM" -name model.mtl); do
	for tex in $(sed -n 's/^map_Kd //p' "$mtl"); do
		[ -f "$(dirname "$mtl")/$tex" ] || missing="$missing $mtl:$tex"
	done
done
check_eq "every map_Kd points at a texture.png that exists" "" "$missing"
check "some materials have a texture" sh -c "grep -rq '^map_Kd ' $mnt/DATA/DATA.BIN/*/MDL_*/model.mtl"
check "stat size equals bytes read for every OBJ" sh -c \
	"while IFS= read -r f; do [ \"\$(stat -c %s \"\$f\")\" = \"\$(wc -c <\"\$f\")\" ] || exit 1; done <'$work/objs'"
check "the OBJ text is the same on a second read (diff-able)" sh -c \
	"cat \$(cat '$work/objs') | md5sum >'$work/a'; cat \$(cat '$work/objs') | md5sum | cmp - '$work/a'"
check "unmounts cleanly" unmount "$mnt"

done_testing
