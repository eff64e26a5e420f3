#!/bin/sh
# SPDX-License-Identifier: MIT
# overlay.sh - a mount with -o overlay=DIR: which files take edits, the
# ways programs save (over the file, O_TRUNC, cp, a new file renamed
# over it, truncate), an edit taken at close and shown by every file of
# its member and by no other member, a refused edit failing close() with
# EINVAL and kept in DIR, %edits.txt, rm taking an edit back, an editor's
# backup files, a disc file's edit, a second mount on DIR refused, and
# every edit taken again by the next mount.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

disc=$work/disc
mnt=$work/mnt
ov=$work/ov
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }

# ---- without an overlay, nothing changes ----
check "mounts the sample disc read-only" mount_ccsfs "$disc" "$mnt"
check_fails "a write without an overlay fails" \
	sh -c "echo x >'$mnt/SYSTEM.CNF'"
check "... with EROFS" sh -c "echo x 2>&1 >'$mnt/SYSTEM.CNF' | grep -q 'Read-only'"
m=$mnt/DATA/DATA.BIN/chr000
cp "$m/chr000.ccs" "$work/chr000.orig"
cp "$mnt/DATA/DATA.BIN/fld000/fld000.ccs" "$work/fld000.orig"
cp "$m/MAT_chr000/material.txt" "$work/material.orig"
unmount "$mnt"

check "mounts with an overlay" mount_ccsfs "$disc" "$mnt" -o overlay="$ov"
check "the overlay folder is made" test -d "$ov"

# ---- modes ----
mode() { stat -c %a "$1"; }
check_eq "texture.png is 0644" 644 "$(mode "$m/TEX_chr000/texture.png")"
check_eq "a mip level is 0644" 644 "$(mode "$m/TEX_chr000/texture-mip1.png")"
check_eq "palette.png is 0644" 644 "$(mode "$m/CLT_chr000/palette.png")"
check_eq "a chunk's raw file is 0644" 644 \
	"$(mode "$m/chunks/00005-material-MAT_chr000.bin")"
check_eq "an object's raw chunk is 0644" 644 "$(mode "$m/MAT_chr000/material.bin")"
check_eq "the member's .ccs is 0644" 644 "$(mode "$m/chr000.ccs")"
check_eq "a disc file is 0644" 644 "$(mode "$mnt/SYSTEM.CNF")"
check_eq "a .txt is 0444" 444 "$(mode "$m/MAT_chr000/material.txt")"
check_eq "scene.glb is 0444" 444 "$(mode "$m/scene.glb")"
check_fails "a write to a .txt fails" sh -c "echo x >'$m/scene.txt'"
check "... with EACCES" sh -c "echo x 2>&1 >'$m/scene.txt' | grep -q 'Permission denied'"
check_eq "%edits.txt is empty" "" "$(cat "$mnt/%edits.txt")"

# ---- a chunk edited: cp over it, then every file of its member ----
cp "$m/MAT_chr000/material.bin" "$work/mat.bin"
# transparency (the f32 at byte 16) 1.0 -> 0.5
printf '\000\000\000\077' | dd of="$work/mat.bin" bs=1 seek=16 conv=notrunc 2>/dev/null
check "cp over an object's raw chunk" cp "$work/mat.bin" "$m/MAT_chr000/material.bin"
check "material.txt shows the edit" grep -q '^transparency: 0.5$' "$m/MAT_chr000/material.txt"
check "chunks/ shows the same bytes" cmp "$work/mat.bin" "$m/chunks/00005-material-MAT_chr000.bin"
check "the .ccs holds the edited chunk" "$PY" - "$m/chr000.ccs" "$work/mat.bin" "$work/chr000.orig" <<'PY'
import sys
ccs, mat, orig = (open(p, 'rb').read() for p in sys.argv[1:])
assert len(ccs) == len(orig) and mat in ccs and ccs != orig
PY
check "scene.glb is made from the edited bytes" sh -c "test -s '$m/scene.glb'"
check "another member is untouched" cmp "$work/fld000.orig" "$mnt/DATA/DATA.BIN/fld000/fld000.ccs"
check "the edit is a plain file in DIR at its path" \
	cmp "$work/mat.bin" "$ov/DATA/DATA.BIN/chr000/MAT_chr000/material.bin"
check "%edits.txt lists it applied, with its member and size" sh -c \
	"grep -qx 'DATA/DATA.BIN/chr000/MAT_chr000/material.bin	applied	DATA/DATA.BIN/chr000	$(stat -c %s "$work/chr000.orig")' '$mnt/%edits.txt'"

# ---- O_TRUNC: the shell's > over the file ----
printf '\000\000\100\077' | dd of="$work/mat.bin" bs=1 seek=16 conv=notrunc 2>/dev/null
check "cat > over a chunk (O_TRUNC)" sh -c "cat '$work/mat.bin' >'$m/chunks/00005-material-MAT_chr000.bin'"
check "material.txt shows it" grep -q '^transparency: 0.75$' "$m/MAT_chr000/material.txt"

# ---- a truncate by path while the file is open: the same edit ----
printf '\000\000\000\077' | dd of="$work/mat.bin" bs=1 seek=16 conv=notrunc 2>/dev/null
check "open, truncate by path, write, close: one edit" "$PY" - "$m/MAT_chr000/material.bin" "$work/mat.bin" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.truncate(sys.argv[1], 0)     # SETATTR with no handle
os.write(fd, open(sys.argv[2], 'rb').read())
os.close(fd)
PY
check "material.txt shows it" grep -q '^transparency: 0.5$' "$m/MAT_chr000/material.txt"
check "%edits.txt lists it applied" grep -q "^DATA/DATA.BIN/chr000/MAT_chr000/material.bin	applied	" "$mnt/%edits.txt"

# ---- a new file renamed over: mv, as editors save ----
printf '\000\000\200\076' | dd of="$work/mat.bin" bs=1 seek=16 conv=notrunc 2>/dev/null
check "cp to a new name in the folder" cp "$work/mat.bin" "$m/chunks/.mat.tmp"
check "the new file is shown" test -f "$m/chunks/.mat.tmp"
check "mv it over the chunk" mv "$m/chunks/.mat.tmp" "$m/chunks/00005-material-MAT_chr000.bin"
check_fails "the temporary name is gone" test -e "$m/chunks/.mat.tmp"
check "material.txt shows it" grep -q '^transparency: 0.25$' "$m/MAT_chr000/material.txt"

# ---- refused: another kind of chunk, a member that no longer walks ----
check_fails "cp of a texture chunk over the material fails at close" \
	cp "$m/chunks/00004-texture-TEX_chr000.bin" "$m/MAT_chr000/material.bin"
check "... with EINVAL" sh -c "cp '$m/chunks/00004-texture-TEX_chr000.bin' '$m/MAT_chr000/material.bin' 2>&1 | grep -q 'Invalid argument'"
check "the member keeps its previous content" grep -q '^transparency: 0.25$' "$m/MAT_chr000/material.txt"
check "the refused file is kept in DIR as written" \
	cmp "$m/chunks/00004-texture-TEX_chr000.bin" "$ov/DATA/DATA.BIN/chr000/MAT_chr000/material.bin"
check "%edits.txt says why" grep -q "^DATA/DATA.BIN/chr000/MAT_chr000/material.bin	refused: a chunk of kind 0x0300 (texture) where the material chunk was	DATA/DATA.BIN/chr000	-$" "$mnt/%edits.txt"
head -c 100 "$work/chr000.orig" >"$work/short.ccs"
check_fails "a .ccs that no longer walks is refused" cp "$work/short.ccs" "$m/chr000.ccs"
check "%edits.txt says it no longer walks" grep -q "chr000.ccs	refused: the member no longer walks" "$mnt/%edits.txt"
check_fails "truncate -s of a chunk to 4 bytes is refused" truncate -s 4 "$m/chunks/00000-header.bin"

# ---- rm takes an edit back ----
check "rm of the refused .ccs" rm "$m/chr000.ccs"
check "rm of the refused chunk" rm "$m/chunks/00000-header.bin"
check "rm of the material edit" rm "$m/MAT_chr000/material.bin"
check "rm of the chunk edit" rm "$m/chunks/00005-material-MAT_chr000.bin"
check "the file is still there" test -f "$m/MAT_chr000/material.bin"
check "the member is the disc's again" cmp "$work/chr000.orig" "$m/chr000.ccs"
check "material.txt too" cmp "$work/material.orig" "$m/MAT_chr000/material.txt"
check_eq "%edits.txt is empty again" "" "$(cat "$mnt/%edits.txt")"
check_fails "rm of a file never edited fails" rm "$m/scene.txt"

# ---- an editor's backup and lock files ----
check "a backup beside texture.png" sh -c "echo backup >'$m/TEX_chr000/texture.png~'"
check "a lock file" sh -c "echo lock >'$m/TEX_chr000/.#texture.png'"
check "both are listed" sh -c "ls -a '$m/TEX_chr000' | grep -qx 'texture.png~' && ls -a '$m/TEX_chr000' | grep -qx '.#texture.png'"
check_eq "and read back" backup "$(cat "$m/TEX_chr000/texture.png~")"
check "both are kept in DIR" test -f "$ov/DATA/DATA.BIN/chr000/TEX_chr000/texture.png~"
check_eq "they are no edits" "" "$(cat "$mnt/%edits.txt")"
check "rm of the lock file" rm "$m/TEX_chr000/.#texture.png"
check_fails "it is gone" test -e "$ov/DATA/DATA.BIN/chr000/TEX_chr000/.#texture.png"
check_fails "a file cannot be renamed over a .txt" mv "$m/TEX_chr000/texture.png~" "$m/TEX_chr000/texture.txt"
check_fails "nor a file of the tree renamed" mv "$m/scene.txt" "$m/scene2.txt"

# ---- a disc file ----
printf 'BOOT2 = cdrom0:\\SLUS_202.67;1\nVER = 1.10\n' >"$work/system.cnf"
check "a disc file written over" sh -c "cat '$work/system.cnf' >'$mnt/SYSTEM.CNF'"
check "it reads back" cmp "$work/system.cnf" "$mnt/SYSTEM.CNF"
check_eq "its size is the new one" "$(stat -c %s "$work/system.cnf")" "$(stat -c %s "$mnt/SYSTEM.CNF")"
check "%edits.txt lists it as a disc file" grep -q "^SYSTEM.CNF	applied	disc file	$(stat -c %s "$work/system.cnf")$" "$mnt/%edits.txt"

# ---- a second mount on the same DIR ----
# Unmounted at exit should it mount after all (the first one gone).
mounts="$mounts $work/mnt2"
check_fails "a second mount on DIR is refused" "$CCSFS" -o overlay="$ov" "$disc" "$work/mnt2"
mkdir -p "$work/mnt2"
check "... saying why" sh -c "'$CCSFS' -o overlay='$ov' '$disc' '$work/mnt2' 2>&1 | grep -q 'is the overlay of another mount'"

# ---- every edit taken again by the next mount ----
check "cp over the chunk again" cp "$work/mat.bin" "$m/MAT_chr000/material.bin"
unmount "$mnt"
check "mounts again with DIR" mount_ccsfs "$disc" "$mnt" -o overlay="$ov"
check "the chunk edit is there" grep -q '^transparency: 0.25$' "$m/MAT_chr000/material.txt"
check "the disc file's too" cmp "$work/system.cnf" "$mnt/SYSTEM.CNF"
check_eq "%edits.txt lists both" 2 "$(wc -l <"$mnt/%edits.txt")"
check "the backup is shown" test -f "$m/TEX_chr000/texture.png~"
unmount "$mnt"
check "mounted without DIR the disc is as it was" mount_ccsfs "$disc" "$mnt"
check "... its member" cmp "$work/chr000.orig" "$m/chr000.ccs"
unmount "$mnt"
check "SOURCE was never written" sh -c "! find '$disc' -newer '$work/chr000.orig' | grep -q ."

done_testing
