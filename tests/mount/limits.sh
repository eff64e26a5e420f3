#!/bin/sh
# SPDX-License-Identifier: MIT
# limits.sh - claims that would take gigabytes if believed: a member whose
# ISIZE says 4 GiB, a texture of 2^20 x 2^20, a model of 2^31 vertices,
# an index of 2^31 objects.  Each is a clear error (error.txt, EIO for
# what cannot be made, a log line), the rest still reads, and the daemon
# stays small.  Then the max_member cap itself.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

arc=$work/broken.bin
raw=$work/raw/broken.bin
mnt=$work/mnt
log=$work/ccsfs.log
"$CCSGEN" broken "$arc" --raw "$work/raw" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }

# eio FILE: reading it fails with EIO.
eio() {
	cat "$1" 2>&1 >/dev/null | grep -q 'Input/output error'
}

check "mounts the broken archive in the foreground" mount_fg "$arc" "$mnt" "$log"

m=$mnt/isize4g
check "isize4g: the .ccs fails with EIO" eio "$m/isize4g.ccs"
check "isize4g: error.txt names the 4 GiB claim" \
	grep -q 'ISIZE claims 4294967295 bytes, the data inflates to' "$m/error.txt"
check "isize4g: the listing marks it broken" \
	sh -c "grep -q '^isize4g broken ' '$mnt/%members.txt'"
check "isize4g: its chunks still read (the data itself is whole)" \
	sh -c "cat '$m/chunks/'* | cmp - '$raw/isize4g.ccs'"

m=$mnt/tex2p20
check "tex2p20: TEX_2p20/texture.png fails with EIO" eio "$m/TEX_2p20/texture.png"
check_eq "tex2p20: and is listed with size 0" 0 "$(stat -c %s "$m/TEX_2p20/texture.png")"
check "tex2p20: error.txt names tw and th and the cap" \
	grep -q 'texture.png: texture: tw 20 / th 20: a side above 2^10 pixels' "$m/TEX_2p20/error.txt"
check "tex2p20: the raw chunk still reads" test -s "$m/TEX_2p20/texture.bin"
check "tex2p20: the good texture beside it makes its PNG" \
	sh -c "head -c 8 '$m/TEX_tex2p20/texture.png' | od -An -tx1 | grep -q '89 50 4e 47'"
check "tex2p20: the .ccs reads" cmp "$m/tex2p20.ccs" "$raw/tex2p20.ccs"

m=$mnt/mdl2p31
check "mdl2p31: error.txt says the vertices run past the end" \
	grep -q 'chunk of kind 0x0800: its vertices run past the end of the file' "$m/error.txt"
check_fails "mdl2p31: no folder for the lying model" test -e "$m/MDL_2p31"
check "mdl2p31: its bytes are kept in the trailer" \
	sh -c "ls '$m/chunks' | tail -n 1 | grep -q -- '-trailer.bin$' && cat '$m/chunks/'* | cmp - '$raw/mdl2p31.ccs'"
check "mdl2p31: the good model before it still makes its OBJ" \
	grep -q '^v ' "$m/MDL_mdl2p31/model.obj"

m=$mnt/idx2p31
check "idx2p31: error.txt names the 2^31 objects" \
	grep -q 'the index chunk claims 2 files and 2147483648 objects, more than it holds' "$m/error.txt"
check "idx2p31: scene.txt says so too" grep -q '^error: at byte 60: ' "$m/scene.txt"
check "idx2p31: the .ccs reads" cmp "$m/idx2p31.ccs" "$raw/idx2p31.ccs"
check "idx2p31: the header, then the rest from the index on as a trailer" \
	sh -c "cat '$m/chunks/'* | cmp - '$raw/idx2p31.ccs' && test \$(ls '$m/chunks' | wc -l) = 2"

for g in good1 good2; do
	check "$g: still reads" cmp "$mnt/$g/$g.ccs" "$raw/$g.ccs"
done
# Everything else, so the figure below covers all of it.
find "$mnt" -type f -exec cat {} + >/dev/null 2>&1
for what in 'member isize4g at byte [0-9]*: incorrect length check' \
	'member tex2p20: TEX_2p20/texture.png: texture: tw 20' \
	'member mdl2p31: chunk of kind 0x0800' \
	'member idx2p31: the index chunk claims'; do
	check "a log line: $what" grep -q "$what" "$log"
done
hwm=$(vm_kb "$fg_pid" VmHWM)
# (About 4 MB; 20 MB under ASan.)
check "the daemon's peak memory stays under 100 MB (it was ${hwm:-?} kB)" \
	test "${hwm:-999999999}" -lt 102400
check "unmounts cleanly" unmount_fg "$mnt"
check_eq "the daemon exits 0" 0 "$fg_status"

# The cap on what a member may inflate to: one over it is refused with
# its reason, before more than the cap is inflated.
check "mounts with -o max_member=2K" mount_fg "$arc" "$mnt" "$log" -o max_member=2K
check "good1 is over the cap: error.txt says so" \
	grep -q 'inflate: inflates to more than 2048 bytes' "$mnt/good1/error.txt"
check_fails "good1: no .ccs to read" test -e "$mnt/good1/good1.ccs"
check "the listing marks it toobig" sh -c "grep -q '^good1 toobig ' '$mnt/%members.txt'"
check "a log line names it" grep -q 'member good1 at byte 0: inflates to more than 2048 bytes' "$log"
check "unmounts cleanly" unmount_fg "$mnt"
check_eq "the daemon exits 0" 0 "$fg_status"

done_testing
