#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind.sh - the daemon under valgrind's memcheck, on the sample disc
# image and on the broken archive: every file read, every folder listed,
# every link followed, then unmounted.  No invalid read or write, no use
# of an uninitialised value, no block definitely lost.
#
# Skipped without valgrind, and under AddressSanitizer (the two do not
# run together; CI runs this in the plain build).
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

if ! command -v valgrind >/dev/null; then
	echo "1..0 # SKIP no valgrind"
	exit 0
fi
if ldd "$CCSFS" 2>/dev/null | grep -q 'libasan\|libtsan'; then
	echo "1..0 # SKIP ccsfs is built with a sanitizer"
	exit 0
fi
command -v genisoimage >/dev/null || skip_all "no genisoimage"

disc=$work/disc
iso=$work/sample.iso
arc=$work/broken.bin
"$CCSGEN" sample "$disc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
genisoimage -quiet -iso-level 2 -V SLUS_20267 -o "$iso" "$disc" ||
	{ echo "Bail out! genisoimage"; exit 1; }
"$CCSGEN" broken "$arc" >/dev/null || { echo "Bail out! ccsgen"; exit 1; }
mnt=$work/mnt

# walk_all: what a user's tools do to every file.
walk_all() {
	ls -lR "$mnt" >/dev/null 2>&1
	find "$mnt" -type f -exec cat {} + >/dev/null 2>&1
	find "$mnt" -type l -exec readlink {} + >/dev/null 2>&1
	find -L "$mnt" -name model.obj -exec head -c 100 {} + >/dev/null 2>&1
}

for what in sample.iso broken.bin; do
	src=$work/$what
	vlog=$work/valgrind-$what.log
	# A small cache makes members inflate again, and evictions run.
	FG_WAIT=600 FG_WRAP="valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 --log-file=$vlog" \
		check "$what: mounts under valgrind" mount_fg "$src" "$mnt" "$work/ccsfs-$what.log" -o cache_size=256K
	walk_all
	check "$what: unmounts" unmount_fg "$mnt"
	check_eq "$what: valgrind's exit is 0 (no error, no definite leak)" 0 "$fg_status"
	check_eq "$what: no invalid access or uninitialised value" "" \
		"$(grep -E 'Invalid (read|write|free)|uninitialised|Mismatched free|overlap' "$vlog" | head -n 5)"
	check "$what: nothing definitely lost" \
		grep -q 'definitely lost: 0 bytes\|All heap blocks were freed' "$vlog"
	# The summary, for the log.
	grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|in use at exit' "$vlog" |
		sed 's/^==[0-9]*== */# /'
	[ "$fg_status" = 0 ] || grep -v '^==[0-9]*== *$' "$vlog" | sed 's/^/# /' | head -n 60
done

done_testing
