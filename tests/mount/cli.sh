#!/bin/sh
# SPDX-License-Identifier: MIT
# cli.sh - the command line: help, version, clear errors before mounting.
. "${TESTS_SRCDIR:-$(dirname "$0")/..}/mount/lib.sh"

mkdir -p "$work/mnt"
# Every mount here should be refused; one that is not is unmounted at exit.
mounts="$mounts $work/mnt"
check "--help shows the usage" sh -c "'$CCSFS' --help | grep -q '^usage: .* SOURCE MOUNTPOINT'"
check "--help lists cache_size" sh -c "'$CCSFS' --help | grep -q 'cache_size='"
check "--version names the version" sh -c "'$CCSFS' --version | grep -q '^ccsfs [0-9]'"
check "a missing source: one clear line, non-zero exit" sh -c \
	"! '$CCSFS' '$work/none' '$work/mnt' 2>'$work/err' && grep -q 'none: No such file or directory' '$work/err' && test \$(wc -l <'$work/err') = 1"
printf 'not an archive\n' >"$work/plain"
check "a file that is not an archive is refused" sh -c \
	"! '$CCSFS' '$work/plain' '$work/mnt' 2>'$work/err' && grep -q 'neither an ISO 9660 image.*nor a game archive' '$work/err'"
# An image that claims ISO 9660 at sector 16 and holds nothing else.
dd if=/dev/zero bs=2048 count=20 of="$work/cut.iso" 2>/dev/null
printf '\001CD001\001' | dd of="$work/cut.iso" bs=1 seek=32768 conv=notrunc 2>/dev/null
check "a damaged image is refused with a reason" sh -c \
	"! '$CCSFS' '$work/cut.iso' '$work/mnt' 2>'$work/err' && grep -q 'cut.iso: ' '$work/err' && test \$(wc -l <'$work/err') = 1"
check "no mount point is an error" sh -c "! '$CCSFS' '$work/plain' 2>'$work/err' && grep -q MOUNTPOINT '$work/err'"
check "a bad cache_size is refused" sh -c \
	"! '$CCSFS' -o cache_size=lots '$work/plain' '$work/mnt' 2>'$work/err' && grep -q 'cache_size=lots' '$work/err'"
check "a bad busy_poll is refused, with its range" sh -c \
	"! '$CCSFS' -o busy_poll=200us '$work/plain' '$work/mnt' 2>'$work/err' && grep -q 'busy_poll=200us: not a whole number from 0 to 100000' '$work/err'"
check "a busy_poll past 100 ms is refused" sh -c \
	"! '$CCSFS' -o busy_poll=100001 '$work/plain' '$work/mnt' 2>'$work/err' && grep -q 'busy_poll=100001' '$work/err'"
man=${TESTS_SRCDIR:-$(dirname "$0")/..}/../man/ccsfs.1
missing=""
for opt in $("$CCSFS" --help | sed -n '/^ccsfs options:/,/^FUSE options:/p' |
	grep -o -- '-o [a-z_]*=\|--\?[a-zA-Z-]\+' | sed 's/^-o //; s/=$//' | sort -u); do
	# The man page escapes dashes.
	pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	grep -q -- "$pat" "$man" || missing="$missing $opt"
done
check_eq "every ccsfs option in --help is in the man page" "" "$missing"
check "the man page renders without warnings (groff -ww)" sh -c \
	"groff -ww -man -Tutf8 '$man' 2>&1 >/dev/null | grep -c . | grep -qx 0"
check_fails "nothing was mounted by the failures" mountpoint -q "$work/mnt"

done_testing
