#!/bin/sh
# SPDX-License-Identifier: MIT
# tree.sh - the sample disc mounted as a user sees it: the tree of
# doc/formats/tree.md, exact bytes and sizes, times, names, read-only, two
# mounts alike.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

disc=$work/disc
raw=$work/raw
mnt=$work/mnt
"$CCSGEN" sample "$disc" --raw "$raw" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }

check "mounts the sample disc folder" mount_ccsfs "$disc" "$mnt"
check_eq "root mirrors the disc, and %text/ from its executable" \
	"%text DATA OUTSIDE.BIN SLUS_202.67 STREAM SYSTEM.CNF" "$(ls "$mnt" | tr '\n' ' ' | sed 's/ $//')"
check "archives are folders" test -d "$mnt/DATA/DATA.BIN" -a -d "$mnt/STREAM/STR1.BIN"
check "other files pass through as files" test -f "$mnt/DATA/SNDDATA.BIN" -a -f "$mnt/SYSTEM.CNF"
check "passed-through files are byte-exact" cmp "$mnt/SLUS_202.67" "$disc/SLUS_202.67"
check_eq "passed-through size" "$(stat -c %s "$disc/OUTSIDE.BIN")" "$(stat -c %s "$mnt/OUTSIDE.BIN")"

for ar in DATA/DATA.BIN STREAM/STR1.BIN; do
	a=$(basename "$ar")
	want=$(ls "$raw/$a" | sed 's/\.ccs$//' | sort | tr '\n' ' ')
	got=$(ls "$mnt/$ar" | grep -v '^%members.txt$\|^%categories$' | sort | tr '\n' ' ')
	check_eq "$a: one folder per member" "$want" "$got"
	listed=$(($(wc -l <"$mnt/$ar/%members.txt") - 1))
	check_eq "$a: every member is ok in %members.txt" "" \
		"$(awk 'NR > 1 && $2 != "ok"' "$mnt/$ar/%members.txt")"
	check_eq "$a: %members.txt has a line per member" "$(ls "$raw/$a" | wc -l)" "$listed"
	bad=""
	badcat=""
	badsize=""
	for f in "$raw/$a"/*.ccs; do
		m=$(basename "$f" .ccs)
		cmp -s "$mnt/$ar/$m/$m.ccs" "$f" || bad="$bad $m"
		cat "$mnt/$ar/$m/chunks/"* | cmp -s - "$f" || badcat="$badcat $m"
		[ "$(stat -c %s "$mnt/$ar/$m/$m.ccs")" = "$(stat -c %s "$f")" ] || badsize="$badsize $m"
		isize=$(awk -v m="$m" '$1 == m { print $6 }' "$mnt/$ar/%members.txt")
		[ "$isize" = "$(stat -c %s "$f")" ] || badsize="$badsize $m(listing)"
	done
	check_eq "$a: every .ccs is the inflated member" "" "$bad"
	check_eq "$a: chunks/ concatenated is the .ccs" "" "$badcat"
	check_eq "$a: sizes of .ccs and listing are exact" "" "$badsize"
done

d=$mnt/DATA/DATA.BIN
check_eq "no member of the sample has error.txt" "" "$(cd "$d" && ls -d */error.txt 2>/dev/null)"
check "scene.txt decodes the header" grep -qx 'version: 0x100' "$d/xasc00/scene.txt"
check "scene.txt lists objects with their kinds" grep -q '^object [0-9]*: TEX_xasc00 file 1 kinds texture' "$d/xasc00/scene.txt"
check "old versions are walked" grep -qx 'version: 0x90' "$d/xold90/scene.txt"
check "texture object folder has raw and text" test -f "$d/xasc00/TEX_xasc00/texture.bin" -a -f "$d/xasc00/TEX_xasc00/texture.txt"
tex_chunk=$(ls "$d/xasc00/chunks/" | grep -- '-texture-TEX_xasc00.bin$' | head -n 1)
check "object .bin equals its chunk" cmp "$d/xasc00/TEX_xasc00/texture.bin" "$d/xasc00/chunks/$tex_chunk"
check "texture.txt says its kind" grep -qx 'kind: 0x0300 (texture)' "$d/xasc00/TEX_xasc00/texture.txt"
check "kinds without a known layout have no .txt" sh -c "! ls '$d'/*/*/particle.txt '$d'/*/*/eff.txt 2>/dev/null | grep -q ."
check "anime.txt decodes an Anime chunk's records, frame by frame" sh -c \
	"grep -q '^1 f_obj OBJ_chr000_n0 pos=2,0,1 ' '$d/chr000/ANM_chr000/anime.txt'"
check "anime.txt decodes chr000's object controllers" sh -c \
	"grep -A4 -x '0 object-ctl OBJ_chr000_n1 flags=0x00000011' '$d/chr000/ANM_chr000/anime.txt' | grep -qx '    2: 0 0 90'"
# pc000, the walking figure (tests/gen/pc000.h): its clip places every
# node, and nothing about it is an error.
w=$d/pc000/ANM_pc000_walk/anime.txt
check_eq "pc000: an object controller per clump node" \
	"hips body head armL armR legL legR" \
	"$(sed -n 's/^0 object-ctl OBJ_pc000_\([a-zA-Z]*\) .*/\1/p' "$w" | tr '\n' ' ' | sed 's/ $//')"
check "pc000: legL swings +-30 degrees about X" sh -c \
	"grep -A4 '^0 object-ctl OBJ_pc000_legL ' '$w' | tr '\n' '|' | grep -q 'rotation: keyed 3|    0: 30 0 0|    15: -30 0 0|'"
check "pc000: the clip loops, camera records in its Tops" sh -c \
	"grep -qx -- '-2 top - frame=-2' '$w' && test \$(grep -c '^[0-9]* f_camera CAM_pc000 ' '$w') = 3"
check "pc000: omni light and material controllers" sh -c \
	"grep -q '^0 omnilight-ctl LGT_pc000 ' '$w' && grep -q '^0 material-ctl MAT_pc000 ' '$w'"
check_eq "pc000: no error.txt anywhere" "" "$(cd "$d/pc000" && ls */error.txt error.txt 2>/dev/null)"
check "pc000: the clump lists the nodes in slot order" sh -c \
	"grep -q '^node 6: [0-9]* (OBJ_pc000_legR)' '$d/pc000/CMP_pc000/clump.txt'"
check "Shift-JIS names become UTF-8" test -d "$d/framebuf/FBR_描画領域"
check "a / in a name is escaped" test -d "$d/names/DMY_a%2Fb"
check "a repeated name gets ~index" test -d "$d/names/DMY_twin~6"
check "an empty name is #index" test -d "$d/names/#7"
check "a repeated member name gets ~2" test -d "$d/xasc00~2"

s=$mnt/STREAM/STR1.BIN
check_eq "a '#' object owning nothing is a link into the pair's setup file" \
	"../str0001e/MDL_s0001_0" "$(readlink "$s/str0001/MDL_s0001_0")"
check "the link resolves to the object's folder" test -f "$s/str0001/MDL_s0001_0/model.obj"
check_eq "a '#' object owning chunks keeps its folder, with a defined link" \
	"../../str0001e/OBJ_s0001_0" "$(readlink "$s/str0001/OBJ_s0001_0/defined")"
check "an unresolved '#' object is said so in scene.txt" \
	grep -q 'OBJ_cmn_kite .*defined unresolved' "$s/str0001/scene.txt"
check "find -L follows every link without a loop or a dangling one" sh -c \
	"find -L '$s' 2>&1 >/dev/null | grep -c . | grep -qx 0"

# Every file's size is exact before the first read.
sizes_ok=yes
find "$mnt/DATA" "$mnt/STREAM" -type f >"$work/files"
while IFS= read -r f; do
	[ "$(stat -c %s "$f")" = "$(wc -c <"$f")" ] || { sizes_ok="no: $f"; break; }
done <"$work/files"
check_eq "stat size equals bytes read, for every file" yes "$sizes_ok"
dd if="$raw/DATA.BIN/xbig00.ccs" bs=1000 skip=77 count=3 2>/dev/null >"$work/part"
check "a read at an offset gets those bytes" sh -c \
	"dd if='$d/xbig00/xbig00.ccs' bs=1000 skip=77 count=3 2>/dev/null | cmp - '$work/part'"
check "mmap of a file reads its bytes" "$PY" -c "
import mmap, sys
with open('$d/xbig00/xbig00.ccs', 'rb') as f, open('$raw/DATA.BIN/xbig00.ccs', 'rb') as g:
    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    sys.exit(0 if m[:] == g.read() else 1)"

mtime=$(awk '$1 == "xasc00" { print $8 }' "$d/%members.txt")
check_eq "member files carry the gzip MTIME" "$mtime" \
	"$(date -u -d "@$(stat -c %Y "$d/xasc00/xasc00.ccs")" +%Y-%m-%dT%H:%M:%SZ)"
check_eq "files are 0444, folders 0555" "444 555" \
	"$(stat -c %a "$d/xasc00/scene.txt") $(stat -c %a "$d/xasc00/chunks")"
ino1=$(stat -c %i "$d/xasc00/scene.txt")
ino2=$(stat -c %i "$d/xasc00/scene.txt")
check "inode numbers are non-zero and stable" test "$ino1" = "$ino2" -a "$ino1" != 0
check "inode numbers differ between files" test "$ino1" != "$(stat -c %i "$d/xasc00/xasc00.ccs")"

check_fails "writing a file fails" sh -c "echo x >>'$d/xasc00/scene.txt'"
check "writes fail with EROFS" sh -c "touch '$d/xasc00/new' 2>&1 | grep -q 'Read-only file system'"
check_fails "removing fails" rm -f "$d/xasc00/scene.txt"
check_fails "making a folder fails" mkdir "$d/newdir"

ntex=$(cd "$d" && ls -d */TEX_*/texture.bin | wc -l)
check_eq "grep -r finds every texture .txt" "$ntex" \
	"$(grep -rl --include=texture.txt -x 'kind: 0x0300 (texture)' "$d" | wc -l)"

mnt2=$work/mnt2
# The second mount reads nothing ahead and keeps almost nothing cached:
# what readahead and the cache serve must be what a bare read makes.
check "a second mount of the same disc, no readahead, 1M cache" \
	mount_ccsfs "$disc" "$mnt2" -o noreadahead,cache_size=1M
check "diff -r of two mounts finds no difference" diff -r "$mnt/DATA" "$mnt2/DATA"
check "unmounts cleanly" unmount "$mnt2"

# A member the cache evicts before its .ccs was read is handed to the
# kernel's page cache: after a glob of every member's folder through a
# cache that keeps almost nothing, reading each .ccs reads next to
# nothing of the archive (the daemon's rchar), and gives its bytes.
mnt5=$work/mnt5
check "mounts with a 1M cache for a glob" \
	mount_fg "$disc" "$mnt5" "$work/glob.log" -o noreadahead,cache_size=1M
globbed=$(cd "$mnt5/DATA/DATA.BIN" && echo */*.ccs)
# The last stores end: the daemon's writes to the kernel stop for a
# while (a fixed sleep is too short on a loaded machine).
wchar() { awk '$1 == "wchar:" { print $2 }' "/proc/$fg_pid/io"; }
last=-1
for _ in $(seq 60); do
	now=$(wchar)
	[ "$now" = "$last" ] && break
	last=$now
	sleep 0.5
done
rchar() { awk '$1 == "rchar:" { print $2 }' "/proc/$fg_pid/io"; }
before=$(rchar)
(cd "$mnt5/DATA/DATA.BIN" && cat $globbed) >"$work/globbed.bin"
read_more=$(( $(rchar) - before ))
(cd "$raw/DATA.BIN" && for f in $globbed; do cat "${f#*/}"; done) >"$work/raw.bin"
check "after a glob: every .ccs reads its member's bytes" \
	cmp "$work/globbed.bin" "$work/raw.bin"
archive=$(stat -c %s "$disc/DATA/DATA.BIN")
check "after a glob: reading them read less than a quarter of the archive ($read_more of $archive bytes)" \
	test "$read_more" -lt $((archive / 4))
check "unmounts the glob mount" unmount_fg "$mnt5"
check_eq "the glob mount logged nothing" "" "$(cat "$work/glob.log")"
# A find lists the folders below the members too: it uses them, and what
# it evicts is not handed on (the copy would be wasted on a listing).
check "mounts with a 1M cache for a find" \
	mount_fg "$disc" "$mnt5" "$work/find.log" -o noreadahead,cache_size=1M
find "$mnt5/DATA/DATA.BIN" >/dev/null
sleep 1
before=$(rchar)
(cd "$mnt5/DATA/DATA.BIN" && cat $globbed) >"$work/found.bin"
read_more=$(( $(rchar) - before ))
check "after a find: every .ccs reads its member's bytes" \
	cmp "$work/found.bin" "$work/raw.bin"
check "after a find: reading them read the archive again ($read_more of $archive bytes)" \
	test "$read_more" -ge $((archive / 2))
check "unmounts the find mount" unmount_fg "$mnt5"

# A listing counts a text's bytes rather than make it (ls -lR on a fresh
# mount measures every one): each file then reads exactly as many bytes
# as the listing said, and a made file that differed would fail (EIO).
mnt3=$work/mnt3
check "mounts the sample disc for a listing" mount_ccsfs "$disc" "$mnt3"
ls -lR "$mnt3/DATA" "$mnt3/STREAM" >"$work/listing" 2>&1
check_eq "ls -lR on a fresh mount lists without an error" 0 "$?"
listed=$(awk '/^-/ { n++; s += $5 } END { print n + 0, s + 0 }' "$work/listing")
got=$(find "$mnt3/DATA" "$mnt3/STREAM" -type f -exec cat {} + | wc -c)
check_eq "after ls -lR: the bytes read are the bytes listed" \
	"$(find "$mnt3/DATA" "$mnt3/STREAM" -type f | wc -l) $got" "$listed"
check "after ls -lR: every file reads without an error" sh -c \
	"find '$mnt3/DATA' '$mnt3/STREAM' -type f -exec cat {} + >/dev/null"
check "after ls -lR: the same tree as the first mount" diff -r "$mnt/DATA" "$mnt3/DATA"
check "unmounts the listed mount" unmount "$mnt3"

# Folders are opened by the kernel itself: one OPENDIR (answered ENOSYS)
# for the whole mount, then only READDIRPLUS; a folder that cannot be
# listed still fails (tests/mount/broken.sh).
dbg=$work/mntd
check "mounts with -d to see the requests" mount_fg "$disc" "$dbg" "$work/debug.log" -d
ls -R "$dbg/DATA/DATA.BIN" >/dev/null
check "unmounts the -d mount" unmount_fg "$dbg"
check_eq "ls -R of DATA.BIN: one OPENDIR in all" 1 "$(grep -c 'opcode: OPENDIR' "$work/debug.log")"
check_eq "ls -R of DATA.BIN: no RELEASEDIR" 0 "$(grep -c 'opcode: RELEASEDIR' "$work/debug.log")"
check "ls -R of DATA.BIN: its folders read with READDIRPLUS" grep -q 'opcode: READDIRPLUS' "$work/debug.log"

single=$work/single
check "mounts a single archive" mount_ccsfs "$disc/STREAM/STR1.BIN" "$single"
check "single archive: its members at the root" test -f "$single/str0001/str0001.ccs"
check "single archive: same bytes as through the disc" \
	cmp "$single/str0001/str0001.ccs" "$mnt/STREAM/STR1.BIN/str0001/str0001.ccs"
check "unmounts the single archive" unmount "$single"

if command -v genisoimage >/dev/null; then
	genisoimage -quiet -iso-level 2 -V SAMPLE -o "$work/disc.iso" "$disc" 2>/dev/null
	iso=$work/iso
	check "mounts the disc image itself" mount_ccsfs "$work/disc.iso" "$iso"
	check_eq "image root mirrors the disc, ;1 dropped" \
		"%text DATA OUTSIDE.BIN SLUS_202.67 STREAM SYSTEM.CNF" "$(ls "$iso" | tr '\n' ' ' | sed 's/ $//')"
	check "image: diff -r against the folder mount finds nothing" diff -r "$mnt" "$iso"
	check "image: a passed-through file is byte-exact" cmp "$iso/SLUS_202.67" "$disc/SLUS_202.67"
	check_eq "image: a file keeps the disc's time" "$(stat -c %Y "$disc/SYSTEM.CNF")" "$(stat -c %Y "$iso/SYSTEM.CNF")"
	check "unmounts the image" unmount "$iso"
else
	not_ok "genisoimage is missing: the disc image was not tried"
fi

check "the first mount still answers" test -f "$d/xasc00/scene.txt"
check "unmounts cleanly" unmount "$mnt"
check_fails "nothing is mounted after unmount" mountpoint -q "$mnt"

done_testing
