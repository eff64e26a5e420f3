#!/bin/sh
# SPDX-License-Identifier: MIT
# texture.sh - every texture.png and palette.png of the sample disc opens
# in independent readers, is exactly as big as stat says, and maps.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

command -v pngcheck >/dev/null || skip_all "no pngcheck"
"$PY" -c 'import PIL' 2>/dev/null || skip_all "no python3-pil"

disc=$work/disc
mnt=$work/mnt
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts the sample disc" mount_ccsfs "$disc" "$mnt"

find "$mnt" -name '*.png' | sort >"$work/pngs"
ntex=$(grep -c '/texture\.png$' "$work/pngs")
nmip=$(grep -c '/texture-mip[0-9]\.png$' "$work/pngs")
ntexbin=$(find "$mnt" -path '*/TEX_*/texture.bin' | wc -l)
check_eq "every texture object has texture.png" "$ntexbin" "$ntex"
check "some textures have mip levels" test "$nmip" -gt 0
check "palettes have palette.png" test "$(grep -c '/palette\.png$' "$work/pngs")" -gt 0
check "pngcheck accepts every PNG" sh -c "xargs pngcheck -q <'$work/pngs'"
check "PIL opens every PNG, indexed, sized as the texture says" "$PY" - "$work/pngs" <<'PY'
import re, sys
from PIL import Image
bad = []
for path in open(sys.argv[1]).read().split('\n'):
    if not path:
        continue
    im = Image.open(path)
    im.load()
    if im.mode != 'P':
        bad.append(path + ': mode ' + im.mode)
    m = re.search(r'texture(?:-mip(\d))?\.png$', path)
    if m:
        txt = open(path.rsplit('/', 1)[0] + '/texture.txt').read()
        tw = int(re.search(r'^tw: (\d+)$', txt, re.M).group(1))
        th = int(re.search(r'^th: (\d+)$', txt, re.M).group(1))
        n = int(m.group(1) or 0)
        want = (max(1, (1 << tw) >> n), max(1, (1 << th) >> n))
        if im.size != want:
            bad.append('%s: %s, want %s' % (path, im.size, want))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
sizes_ok=yes
while IFS= read -r f; do
	[ "$(stat -c %s "$f")" = "$(wc -c <"$f")" ] || { sizes_ok="no: $f"; break; }
done <"$work/pngs"
check_eq "stat size equals bytes read for every PNG" yes "$sizes_ok"
check "mmap of every PNG gives the bytes read" "$PY" - "$work/pngs" <<'PY'
import mmap, sys
for path in open(sys.argv[1]).read().split():
    with open(path, 'rb') as f:
        data = f.read()
        m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
        if m[:] != data:
            sys.exit(path)
PY
# The generator puts a solid block in the top-left corner of a gradient:
# a texture written bottom row first would show it bottom-left.
check "rows are written top row first" "$PY" - "$mnt/DATA/DATA.BIN/xasc00/TEX_xasc00/texture.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGBA')
w, h = im.size
top, bottom = im.getpixel((0, 0)), im.getpixel((0, h - 1))
near = im.getpixel((1, 1))
sys.exit(0 if top == near and top != bottom else 1)
PY
check "the PNG says where it came from" sh -c \
	"grep -a -q 'xasc00 TEX_xasc00' '$mnt/DATA/DATA.BIN/xasc00/TEX_xasc00/texture.png'"
check "unmounts cleanly" unmount "$mnt"

# Stored PNGs are sized by the listing: on a fresh mount, the sizes stat
# gives before any PNG is read add up to the bytes read afterwards.
check "mounts again" mount_ccsfs "$disc" "$mnt"
listed=$(xargs stat -c %s <"$work/pngs" | awk '{ s += $1 } END { print s }')
read_bytes=$(xargs cat <"$work/pngs" | wc -c)
check_eq "sizes listed before any PNG is made are the bytes made" \
	"$listed" "$read_bytes"
check "unmounts" unmount "$mnt"

# -o png_level=1: compressed PNGs of the same pixels and palettes.
lvl=$work/level1
check "mounts with -o png_level=1" mount_ccsfs "$disc" "$lvl" -o png_level=1
check "mounts again, stored" mount_ccsfs "$disc" "$mnt"
check "pngcheck accepts every compressed PNG" sh -c \
	"sed 's|^$mnt|$lvl|' '$work/pngs' | xargs pngcheck -q"
check "compressed PNGs show the stored ones' pixels, in fewer bytes" \
	"$PY" - "$work/pngs" "$mnt" "$lvl" <<'PY'
import sys
from PIL import Image
paths, stored, packed = sys.argv[1:4]
total = [0, 0]
for path in open(paths).read().split('\n'):
    if not path:
        continue
    a, b = Image.open(path), Image.open(path.replace(stored, packed, 1))
    if (a.size, a.getpalette(), a.tobytes()) != \
       (b.size, b.getpalette(), b.tobytes()):
        sys.exit(path + ': differs at png_level=1')
    total[0] += len(open(path, 'rb').read())
    total[1] += len(open(path.replace(stored, packed, 1), 'rb').read())
sys.exit(0 if total[1] < total[0] else 'png_level=1 is not smaller')
PY
check "unmounts the compressed one" unmount "$lvl"
check "unmounts the stored one" unmount "$mnt"
check_fails "-o png_level=10 is refused" "$CCSFS" -o png_level=10 "$disc" "$lvl"

done_testing
