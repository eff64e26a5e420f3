#!/bin/sh
# SPDX-License-Identifier: MIT
# overlay_clients.sh - real programs edit textures in an overlay mount:
# PIL writes an RGBA image (each pixel the nearest colour of the
# texture's palette) and an indexed one with the texture's own palette
# (indices taken as they are), edits palette.png and a mip level;
# ImageMagick's convert and GIMP in batch mode open texture.png from the
# mount, paint a square and save over it.  After each, texture.png read
# back holds the square, and the mip levels were made again.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

"$PY" -c 'import PIL' 2>/dev/null || skip_all "no python3-pil"

disc=$work/disc
mnt=$work/mnt
ov=$work/ov
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
check "mounts with an overlay" mount_ccsfs "$disc" "$mnt" -o overlay="$ov"
t=$mnt/DATA/DATA.BIN/chr000/TEX_chr000
t2=$mnt/DATA/DATA.BIN/pc000/TEX_pc000

# square PNG X Y SIZE INDEX: the SIZE square at X, Y of the PNG shows
# palette colour INDEX of the texture (its index, or one of that colour).
square() {
	"$PY" - "$@" <<'PY'
import sys
from PIL import Image
path, x0, y0, size, want = sys.argv[1], *map(int, sys.argv[2:])
im = Image.open(path)
assert im.mode == 'P', im.mode
pal = im.getpalette()
colour = lambda i: tuple(pal[3 * i:3 * i + 3])
for y in range(y0, y0 + size):
    for x in range(x0, x0 + size):
        got = im.getpixel((x, y))
        assert colour(got) == colour(want), (x, y, got, want)
PY
}

# colour_of PNG INDEX: "r,g,b" of a palette colour of the PNG.
colour_of() {
	"$PY" -c "import sys
from PIL import Image
p = Image.open(sys.argv[1]).getpalette()
i = int(sys.argv[2])
print('%d,%d,%d' % tuple(p[3 * i:3 * i + 3]))" "$1" "$2"
}

# ---- PIL: RGBA, nearest colour ----
cp "$t/texture-mip1.png" "$work/mip1.before"
cp "$t/../CLT_chr000/palette.png" "$work/palette.before"
check "PIL writes an RGBA texture.png" "$PY" - "$t/texture.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
pal = im.getpalette()
rgba = im.convert('RGBA')
r, g, b = pal[3 * 9:3 * 9 + 3]
for y in range(16):
    for x in range(16):
        # one off the palette's colour: nearest finds it again
        rgba.putpixel((x, y), (min(255, r + 1), g, b, 255))
rgba.save(sys.argv[1])
PY
check "texture.png holds the square" square "$t/texture.png" 0 0 16 9
check "the mip level was made again" sh -c "! cmp -s '$work/mip1.before' '$t/texture-mip1.png'"
check "... with the square at half the size" square "$t/texture-mip1.png" 0 0 8 9
check "the palette is unchanged" cmp "$work/palette.before" "$t/../CLT_chr000/palette.png"

# ---- PIL: indexed with the texture's own palette, indices as they are ----
check "PIL writes an indexed texture.png with its palette" "$PY" - "$t2/texture.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
im.load()
for y in range(8):
    for x in range(8):
        im.putpixel((x, y), 5)
im.save(sys.argv[1])
PY
check "the indices are taken as they are" "$PY" - "$t2/texture.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert all(im.getpixel((x, y)) == 5 for y in range(8) for x in range(8))
PY

# ---- a mip level alone, another size, a palette ----
check "PIL writes a mip level" "$PY" - "$t/texture-mip1.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1])
im.load()
for y in range(4):
    for x in range(4):
        im.putpixel((x, im.size[1] - 1 - y), 2)
im.save(sys.argv[1])
PY
check "the mip level holds it" square "$t/texture-mip1.png" 0 28 4 2
check "texture.png kept its square" square "$t/texture.png" 0 0 16 9
"$PY" -c "from PIL import Image; Image.new('RGBA', (10, 10)).save('$work/small.png')"
check_fails "an image of another size is refused" cp "$work/small.png" "$t/texture.png"
check "%edits.txt says the sizes" grep -q 'texture.png	refused: the image is 10x10' "$mnt/%edits.txt"
check "rm of the refused edit" rm "$t/texture.png"
check "PIL writes palette.png" "$PY" - "$t/../CLT_chr000/palette.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert('RGBA')
for y in range(8):
    for x in range(8, 16):
        im.putpixel((x, y), (255, 0, 255, 255))
im.save(sys.argv[1])
PY
check_eq "the texture's PNGs show the new colour 1" 255,0,255 \
	"$(colour_of "$t/texture-mip1.png" 1)"

# ---- ImageMagick ----
if command -v convert >/dev/null && convert -version 2>/dev/null | grep -q ImageMagick; then
	rgb=$(colour_of "$t2/texture.png" 12)
	check "convert paints a square over texture.png in the mount" \
		convert "$t2/texture.png" -fill "rgb($rgb)" -draw 'rectangle 16,16 23,23' "$t2/texture.png"
	check "texture.png holds ImageMagick's square" square "$t2/texture.png" 16 16 8 12
	check "and PIL's before it" square "$t2/texture.png" 0 0 8 5
else
	skip "ImageMagick edits a texture" "no ImageMagick (imagemagick)"
fi

# ---- GIMP in batch mode ----
if command -v gimp-console >/dev/null; then
	rgb=$(colour_of "$t2/texture.png" 20)
	p=$t2/texture.png
	check "GIMP opens texture.png from the mount, paints and saves over it" \
		env HOME="$work" gimp-console -i -d -f -b "(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE \"$p\" \"$p\"))) (drawable (car (gimp-image-get-active-layer image)))) (gimp-image-convert-rgb image) (gimp-context-set-foreground '($(echo "$rgb" | tr , ' '))) (gimp-image-select-rectangle image CHANNEL-OP-REPLACE 24 0 8 8) (gimp-drawable-edit-fill drawable FILL-FOREGROUND) (gimp-file-save RUN-NONINTERACTIVE image drawable \"$p\" \"$p\"))" -b '(gimp-quit 0)'
	check "texture.png holds GIMP's square" square "$t2/texture.png" 24 0 8 20
	check "and ImageMagick's" square "$t2/texture.png" 16 16 8 12
else
	skip "GIMP edits a texture" "no gimp-console (gimp)"
fi

check "every texture edit is applied in %edits.txt" sh -c "! grep -q refused '$mnt/%edits.txt'"
unmount "$mnt"
check "mounts again with DIR" mount_ccsfs "$disc" "$mnt" -o overlay="$ov"
check "the squares are there" square "$t2/texture.png" 24 0 8 20
check "... and the mip level's" square "$t/texture-mip1.png" 0 28 4 2
unmount "$mnt"

done_testing
