#!/bin/sh
# SPDX-License-Identifier: MIT
# pack.sh - ccsfs-pack over the sample disc: one member grown past its
# place (the members after it move on, DATA.BIN moves to the image's
# end), one that fits, a stream member grown, a texture painted with
# PIL, a passed-through file and an editor's temporary file.  The packed
# image mounted without an overlay is the source mounted with the edits
# as its overlay (diff -r), and shows every other file as the source;
# ccsfs-check finds the tables agree; independent ISO 9660 readers
# (libarchive, xorriso, isoinfo, libiso9660, the kernel) list and
# extract it; the folder and archive outputs hold the same bytes; a
# refused edit writes nothing.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

PACK=${CCSFS_PACK:-$(dirname "$CCSFS")/ccsfs-pack}
CHECK=${CCSFS_CHECK:-$(dirname "$CCSFS")/ccsfs-check}
[ -x "$PACK" ] || skip_all "no ccsfs-pack binary at $PACK"
command -v genisoimage >/dev/null || skip_all "no genisoimage to make the sample image"
[ -e /dev/fuse ] || skip_all "no /dev/fuse"
rm -rf "$work"
mkdir -p "$work"
disc=$work/sample-disc
iso=$work/sample-disc.iso
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen sample"; exit 1; }
genisoimage -quiet -iso-level 2 -V SLUS_20267 -o "$iso" "$disc" ||
	{ echo "Bail out! genisoimage"; exit 1; }
src=$work/src
check "mounts the source image" mount_ccsfs "$iso" "$src"

# The edits: xasc00 takes xasc00~2's scene (it grows past its two
# sectors), xold92 takes xold90's (it fits), str0001e its own scene
# with 8 KiB of noise after its last chunk (it grows, and the stream
# members after it move), SYSTEM.CNF a line more; a swap file is no
# edit.
dir=$work/edits
D=DATA/DATA.BIN
S=STREAM/STR1.BIN
mkdir -p "$dir/$D/xasc00" "$dir/$D/xold92" "$dir/$S/str0001e"
cp "$src/$D/xasc00~2/xasc00~2.ccs" "$dir/$D/xasc00/xasc00.ccs"
cp "$src/$D/xold90/xold90.ccs" "$dir/$D/xold92/xold92.ccs"
{ cat "$src/$S/str0001e/str0001e.ccs"; head -c 8192 /dev/urandom; } >"$dir/$S/str0001e/str0001e.ccs"
{ cat "$src/SYSTEM.CNF"; echo "# packed"; } >"$dir/SYSTEM.CNF"
# A texture painted as an image editor would, through PIL: the mount's
# overlay writes it back into chr000's chunk, and the pack takes that.
tex=DATA/DATA.BIN/chr000/TEX_chr000/texture.png
mkdir -p "$dir/$(dirname "$tex")"
if $PY -c 'import PIL' 2>/dev/null; then
	$PY - "$src/$tex" "$dir/$tex" <<'PYEOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
im.load()
w, h = im.size
for y in range(h // 2):
    for x in range(w // 2):
        im.putpixel((x, y), (im.getpixel((x, y)) + 1) % 16)
im.save(sys.argv[2])
PYEOF
fi
echo swap >"$dir/$D/xasc00/.xasc00.ccs.swp"

out=$work/out.iso
"$PACK" "$iso" "$dir" "$out" >"$work/report" 2>"$work/pack.err"
check_eq "packs the image: exit 0" 0 "$?"
check_eq "no progress line when stderr is no terminal" "" "$(cat "$work/pack.err")"
check "says DATA.BIN's members rewritten and moved" \
	grep -q "^DATA/DATA.BIN: [23] members rewritten (xasc00 xold92\( chr000\)\?), [1-9][0-9]* moved; 118784 -> [0-9]* bytes" "$work/report"
check "says the index was patched" grep -q "^SLUS_202.67: DATA.BIN's index.*records patched" "$work/report"
check "says the stream members rewritten and moved" \
	grep -q "^$S: 1 member rewritten (str0001e), 4 moved" "$work/report"
check "says the stream tables were patched" grep -q "^SLUS_202.67: the stream tables.*records patched" "$work/report"
check "says the swap file is no part of the disc" grep -q "xasc00.ccs.swp: not a member" "$work/report"
check "says the output's size" grep -q "^$out: $(stat -c %s "$out") bytes" "$work/report"
check_eq "no temporary file left" "out.iso" "$(cd "$work" && ls | grep '^out')"

packed=$work/packed
check "mounts the packed image without an overlay" mount_ccsfs "$out" "$packed"
check "xasc00.ccs is the edit's bytes" cmp "$packed/$D/xasc00/xasc00.ccs" "$dir/$D/xasc00/xasc00.ccs"
check "xold92.ccs is the edit's bytes" cmp "$packed/$D/xold92/xold92.ccs" "$dir/$D/xold92/xold92.ccs"
check "str0001e.ccs is the edit's bytes" cmp "$packed/$S/str0001e/str0001e.ccs" "$dir/$S/str0001e/str0001e.ccs"
check "SYSTEM.CNF is the edit's" cmp "$packed/SYSTEM.CNF" "$dir/SYSTEM.CNF"
check "the swap file is not on the disc" test ! -e "$packed/$D/xasc00/.xasc00.ccs.swp"
# The mount after the edit is the disc after the pack: the overlay
# mount of the source and the packed image show the same files, but
# for the listings of what moved and the overlay's own.
edited=$work/edited
check "mounts the source with the edits as its overlay" mount_ccsfs "$iso" "$edited" -o overlay="$dir"
check "the edited mount is the packed disc (diff -r)" diff -r \
	-x '%edits.txt' -x '%members.txt' -x .xasc00.ccs.swp -x SLUS_202.67 \
	"$edited" "$packed"
if [ -f "$dir/$tex" ]; then
	check "the painted texture is on the packed disc" cmp "$edited/$tex" "$packed/$tex"
	check_fails "and differs from the source's" cmp -s "$src/$tex" "$packed/$tex"
else
	skip "the painted texture is on the packed disc" "no PIL (python3-pil)"
fi
check "unmounts the edited mount" unmount "$edited"
# Every other file as the source shows it: the edited members' folders,
# the listings of what moved, the links into those folders and the two
# files changed on purpose aside.
check "every other file is identical (diff -r)" diff -r \
	-x xasc00 -x xold92 -x str0001e -x chr000 -x '%members.txt' -x '%categories' \
	-x SYSTEM.CNF -x SLUS_202.67 "$src" "$packed"
check "the members after the grown one moved by whole sectors" sh -c "
	awk 'NR > 1 && \$1 == \"xasc01\" { print \$3 }' '$packed/$D/%members.txt' | grep -qx 12288"
check_eq "every member: table ok" "" \
	"$(awk 'NR > 1 && $NF != "ok" { print $1 }' "$packed/$D/%members.txt")"
check_eq "every stream member the stream tables name: table ok" "" \
	"$(awk 'NR > 1 && $NF != "ok" && $0 !~ /no stream record/ { print $1 }' "$packed/$S/%members.txt")"
check "the stream members after the grown one moved by whole sectors" sh -c "
	awk 'NR > 1 && \$1 == \"str0001\" { print \$3 }' '$packed/$S/%members.txt' | grep -qx 18432"
check "unmounts the packed image" unmount "$packed"
if [ -x "$CHECK" ]; then
	"$CHECK" "$out" >"$work/check.out" 2>&1
	check_eq "ccsfs-check of the packed image: exit 0" 0 "$?"
	check "ccsfs-check: no failures" grep -q "failures 0$" "$work/check.out"
fi

# The image's own records: DATA.BIN moved past the source image's end,
# the volume space size the image's, both byte orders alike.
check "the volume descriptor and DATA.BIN's record, both byte orders" $PY - "$out" "$(stat -c %s "$iso")" "$work/data.lsn" <<'PYEOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pvd = d[16 * 2048:17 * 2048]
le, = struct.unpack('<I', pvd[80:84]); be, = struct.unpack('>I', pvd[84:88])
assert le == be == len(d) // 2048, (le, be, len(d))
def records(lsn, size):
    at = lsn * 2048
    while at < lsn * 2048 + size:
        n = d[at]
        if n == 0:
            at = (at // 2048 + 1) * 2048
            continue
        yield d[at:at + n]
        at += n
root = pvd[156:156 + 34]
rl, = struct.unpack('<I', root[2:6]); rs, = struct.unpack('<I', root[10:14])
for r in records(rl, rs):
    if r[33:33 + r[32]].startswith(b'DATA'):
        dl, = struct.unpack('<I', r[2:6]); ds, = struct.unpack('<I', r[10:14])
for r in records(dl, ds):
    if r[33:33 + r[32]].startswith(b'DATA.BIN'):
        l1, = struct.unpack('<I', r[2:6]); l2, = struct.unpack('>I', r[6:10])
        s1, = struct.unpack('<I', r[10:14]); s2, = struct.unpack('>I', r[14:18])
        assert l1 == l2 and s1 == s2, (l1, l2, s1, s2)
        assert l1 * 2048 >= int(sys.argv[2]), (l1, sys.argv[2])
        assert l1 * 2048 + s1 <= len(d), (l1, s1, len(d))
        open(sys.argv[3], 'w').write('%d\n' % l1)
        sys.exit(0)
sys.exit(1)
PYEOF

# The folder output: the same edits over the sample folder.
fout=$work/out-folder
check "packs the folder" "$PACK" -q "$disc" "$dir" "$fout"
check_eq "packing over an existing folder is refused" 1 \
	"$("$PACK" -q "$disc" "$dir" "$fout" 2>/dev/null; echo $?)"
# The archive output: the same member edits with the archive as source.
adir=$work/edits-archive
mkdir -p "$adir"
cp -rp "$dir/$D/." "$adir/"
check "packs the archive" "$PACK" -q "$disc/$D" "$adir" "$work/out.bin"
check "the archive output is the folder output's DATA.BIN" cmp "$work/out.bin" "$fout/$D"

# Independent readers of the image.
x=$work/extract
if command -v bsdtar >/dev/null; then
	check "bsdtar -tvf lists DATA/DATA.BIN" sh -c "bsdtar -tvf '$out' | grep -q 'DATA/DATA.BIN'"
	mkdir -p "$x"
	check "bsdtar extracts the image" bsdtar -xf "$out" -C "$x"
	check "bsdtar's extraction is the folder output (diff -r)" diff -r "$x" "$fout"
else
	skip "bsdtar reads the image" "no bsdtar (libarchive-tools)"
fi
if command -v xorriso >/dev/null; then
	check "xorriso -find lists every file" sh -c "
		xorriso -indev '$out' -find / -type f 2>/dev/null | grep -c \"'\" | grep -qx $(cd "$fout" && find . -type f | wc -l)"
	check "xorriso extracts DATA.BIN" sh -c "
		xorriso -osirrox on -indev '$out' -extract /DATA/DATA.BIN '$work/xorriso.bin' >/dev/null 2>&1 &&
		cmp '$work/xorriso.bin' '$fout/$D'"
else
	skip "xorriso reads the image" "no xorriso"
fi
if command -v isoinfo >/dev/null; then
	check "isoinfo -l shows DATA.BIN's new size" sh -c "
		isoinfo -l -i '$out' | grep -q ' $(stat -c %s "$fout/$D") .*DATA.BIN;1'"
	check "isoinfo -x extracts DATA.BIN" sh -c "
		isoinfo -i '$out' -x '/DATA/DATA.BIN;1' >'$work/isoinfo.bin' && cmp '$work/isoinfo.bin' '$fout/$D'"
else
	skip "isoinfo reads the image" "no isoinfo (genisoimage)"
fi
if command -v iso-info >/dev/null; then
	# libiso9660 shows ISO names in lower case, without the version.
	check "iso-info -l (libiso9660) shows DATA.BIN's new extent and size" sh -c "
		iso-info -l -i '$out' --no-header | grep -q 'LSN *$(cat "$work/data.lsn" 2>/dev/null)] *$(stat -c %s "$fout/$D") .* data.bin\$'"
	if command -v iso-read >/dev/null; then
		check "iso-read (libiso9660) extracts DATA.BIN" sh -c "
			iso-read -i '$out' -e '/DATA/DATA.BIN;1' -o '$work/isoread.bin' >/dev/null &&
			cmp '$work/isoread.bin' '$fout/$D'"
	fi
else
	skip "iso-info reads the image" "no iso-info (libcdio-utils)"
fi
kmnt=$work/kernel
mkdir -p "$kmnt"
if [ "$(id -u)" != 0 ]; then
	skip "the kernel mounts the image" "mount -o loop needs root"
elif ! grep -qw iso9660 /proc/filesystems && ! modprobe -q isofs 2>/dev/null; then
	skip "the kernel mounts the image" "this kernel has no iso9660 (modprobe isofs failed)"
elif mount -o loop,ro -t iso9660 "$out" "$kmnt" 2>"$work/kmount.err"; then
	mounts="$mounts $kmnt"
	# Without Rock Ridge the kernel shows names in lower case, no ;1.
	check "the kernel reads the image as the folder output" sh -c "
		cd '$fout' && find . -type f | while read -r f; do
			cmp \"\$f\" '$kmnt'/\"\$(printf %s \"\$f\" | tr A-Z a-z)\" || exit 1
		done && [ \$(find . -type f | wc -l) = \$(find '$kmnt' -type f | wc -l) ]"
	umount "$kmnt"
else
	skip "the kernel mounts the image" "mount -o loop failed: $(head -n 1 "$work/kmount.err")"
fi

# A refused edit: nothing written.
bad=$work/edits-bad
mkdir -p "$bad/$D/xold96"
head -c 100 "$src/$D/xold96/xold96.ccs" >"$bad/$D/xold96/xold96.ccs"
"$PACK" "$iso" "$bad" "$work/bad.iso" >/dev/null 2>"$work/bad.err"
check_eq "a scene that does not walk is refused: exit 1" 1 "$?"
check "the refusal names the file and why" grep -q "xold96/xold96.ccs: refused: the member no longer walks" "$work/bad.err"
check "nothing written" sh -c "! ls '$work' | grep -q '^bad.iso'"

# The command line.
check "--help names SOURCE DIR OUTPUT" sh -c "'$PACK' --help | grep -q 'SOURCE DIR OUTPUT'"
check "--version" sh -c "'$PACK' --version | grep -q '^ccsfs-pack '"
check_eq "too few arguments: exit 2" 2 "$("$PACK" "$iso" "$dir" 2>/dev/null; echo $?)"
check_eq "OUTPUT is SOURCE: refused, exit 2" 2 "$("$PACK" "$iso" "$dir" "$iso" 2>/dev/null; echo $?)"
man=${TESTS_SRCDIR:-$(dirname "$0")/..}/../man/ccsfs-pack.1
missing=""
for opt in $("$PACK" --help | grep -o -- ' --\?[a-zA-Z-]\+' | sort -u); do
	pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$pat" "$man" || missing="$missing $opt"
done
check_eq "every option in --help is in ccsfs-pack(1)" "" "$missing"
check "ccsfs-pack(1) renders without warnings (groff -ww)" sh -c \
	"groff -ww -man -Tutf8 '$man' 2>&1 >/dev/null | grep -c . | grep -qx 0"
check "unmounts the source" unmount "$src"
done_testing
