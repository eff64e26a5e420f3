#!/bin/sh
# SPDX-License-Identifier: MIT
# overlay_crash.sh - the daemon killed (SIGKILL) in the middle of a large
# write into an overlay mount: the overlay folder then holds each edit
# whole as it was before the write, never part of the new one; the next
# mount clears what the killed write staged and takes every edit again.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

disc=$work/disc
mnt=$work/mnt
ov=$work/ov
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
chunk=$mnt/DATA/DATA.BIN/chr000/MAT_chr000/material.bin

check "mounts with an overlay in the foreground" \
	mount_fg "$disc" "$mnt" "$work/log" -o overlay="$ov"
# The first edits, taken whole.
head -c 65536 /dev/urandom >"$work/first.bin"
check "a disc file's first edit" cp "$work/first.bin" "$mnt/OUTSIDE.BIN"
cp "$chunk" "$work/mat.bin"
printf '\000\000\000\077' | dd of="$work/mat.bin" bs=1 seek=16 conv=notrunc 2>/dev/null
check "a chunk's first edit" cp "$work/mat.bin" "$chunk"

# A large write over both, killed in the middle: the writer says when
# it is well into it, then the daemon is killed.
"$PY" - "$mnt/OUTSIDE.BIN" "$work/started" <<'PY' >/dev/null 2>&1 &
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
block = b'\x5a' * (1 << 20)
try:
    for i in range(512):
        os.write(fd, block)
        if i == 16:
            open(sys.argv[2], 'w').close()
    os.close(fd)
except OSError:
    pass
PY
writer=$!
"$PY" - "$chunk" <<'PY' >/dev/null 2>&1 &
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
os.write(fd, b'\0' * 7)
time.sleep(30)          # killed before it closes
PY
holder=$!
for _ in $(seq 1 100); do
	[ -e "$work/started" ] && break
	sleep 0.1
done
check "the large write is under way" test -e "$work/started"
kill -9 "$fg_pid"
wait "$fg_pid" 2>/dev/null
pids=$(echo "$pids" | sed "s/ $fg_pid\b//")
wait "$writer" 2>/dev/null
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -uz "$mnt" 2>/dev/null

check "the disc file's edit in DIR is the first, whole" \
	cmp "$work/first.bin" "$ov/OUTSIDE.BIN"
check "the chunk's edit in DIR is the first, whole" \
	cmp "$work/mat.bin" "$ov/DATA/DATA.BIN/chr000/MAT_chr000/material.bin"
check_eq "nothing else is in DIR but the store's own" \
	"$ov/.ccsfs/lock
$ov/DATA/DATA.BIN/chr000/MAT_chr000/material.bin
$ov/OUTSIDE.BIN" "$(find "$ov" -type f ! -path "$ov/.ccsfs/tmp/*" | sort)"

check "mounts again with DIR" mount_fg "$disc" "$mnt" "$work/log2" -o overlay="$ov"
check "what the killed write staged is cleared" sh -c "test -z \"\$(ls -A '$ov/.ccsfs/tmp')\""
check "the disc file reads as its first edit" cmp "$work/first.bin" "$mnt/OUTSIDE.BIN"
check "the chunk reads as its first edit" cmp "$work/mat.bin" "$chunk"
check "material.txt shows it" grep -q '^transparency: 0.5$' \
	"$mnt/DATA/DATA.BIN/chr000/MAT_chr000/material.txt"
check_eq "%edits.txt lists both, applied" 2 "$(grep -c '	applied	' "$mnt/%edits.txt")"
check "unmounts" unmount_fg "$mnt"

done_testing
